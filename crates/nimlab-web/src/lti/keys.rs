//! The tool's own RSA key: made on the first start and kept in the database's `secrets`
//! table (the file is private, 0600), it signs the client assertions nimlab sends to a
//! platform's token URL, and its public half is served at `/lti/jwks`.

use aws_lc_rs::encoding::AsDer;
use aws_lc_rs::rsa::{KeyPair, KeySize};
use aws_lc_rs::signature::KeyPair as _;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{EncodingKey, Header};
use nimlab_core::error::{Error, Result};
use sha2::{Digest, Sha256};

/// The name of the key in the `secrets` table (PKCS#8 DER).
pub const SECRET_NAME: &str = "lti_tool_key";

/// A fresh 2048-bit key, as PKCS#8 DER.
pub fn fresh_key() -> Vec<u8> {
    let pair = KeyPair::generate(KeySize::Rsa2048).expect("RSA key generation");
    pair.as_der()
        .expect("an RSA key has a PKCS#8 form")
        .as_ref()
        .to_vec()
}

/// The tool's key, ready to sign and to publish.
pub struct ToolKey {
    /// `RSAPrivateKey` (PKCS#1) DER, the form the JWT signer takes.
    signing: EncodingKey,
    /// The public key's modulus and exponent, base64url, as a JWK carries them.
    modulus: String,
    exponent: String,
    /// The key's id: its RFC 7638 thumbprint.
    pub kid: String,
}

impl ToolKey {
    pub fn from_pkcs8(der: &[u8]) -> Result<ToolKey> {
        let bad = |why: &str| {
            Error::internal(
                "the LTI key in the database",
                std::io::Error::other(why.to_string()),
            )
        };
        let pair = KeyPair::from_pkcs8(der).map_err(|_| bad("it is not an RSA key"))?;
        let public = pair.public_key();
        let modulus = URL_SAFE_NO_PAD.encode(public.modulus().big_endian_without_leading_zero());
        let exponent = URL_SAFE_NO_PAD.encode(public.exponent().big_endian_without_leading_zero());
        let pkcs1 = pkcs1_of_pkcs8(der).ok_or_else(|| bad("its PKCS#8 form is malformed"))?;
        // RFC 7638: the SHA-256 of the required members, in lexicographic order.
        let canonical = format!(r#"{{"e":"{exponent}","kty":"RSA","n":"{modulus}"}}"#);
        let kid = URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()));
        Ok(ToolKey {
            signing: EncodingKey::from_rsa_der(pkcs1),
            modulus,
            exponent,
            kid,
        })
    }

    /// The JWK Set served at `/lti/jwks`.
    pub fn jwks(&self) -> serde_json::Value {
        serde_json::json!({
            "keys": [{
                "kty": "RSA",
                "alg": "RS256",
                "use": "sig",
                "kid": self.kid,
                "n": self.modulus,
                "e": self.exponent,
            }]
        })
    }

    /// `claims` signed with RS256 under this key's id.
    pub fn sign(&self, claims: &serde_json::Value) -> Result<String> {
        let mut header = Header::new(jsonwebtoken::Algorithm::RS256);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.signing).map_err(|e| {
            Error::internal("signing an LTI client assertion", std::io::Error::other(e))
        })
    }
}

/// The `RSAPrivateKey` inside a PKCS#8 `PrivateKeyInfo`:
/// `SEQUENCE { INTEGER version, SEQUENCE algorithm, OCTET STRING privateKey, ... }`.
fn pkcs1_of_pkcs8(der: &[u8]) -> Option<&[u8]> {
    let (tag, body, _) = element(der)?;
    if tag != 0x30 {
        return None;
    }
    let (version, _, rest) = element(body)?;
    let (algorithm, _, rest) = element(rest)?;
    let (key_tag, key, _) = element(rest)?;
    (version == 0x02 && algorithm == 0x30 && key_tag == 0x04).then_some(key)
}

/// One DER element: its tag, its contents and what follows it.
fn element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let length = rest[..count]
            .iter()
            .fold(0usize, |n, &b| (n << 8) | usize::from(b));
        (length, &rest[count..])
    };
    (rest.len() >= length).then(|| (tag, &rest[..length], &rest[length..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_key_signs_what_its_published_half_verifies() {
        let key = ToolKey::from_pkcs8(&fresh_key()).unwrap();
        let token = key
            .sign(&serde_json::json!({"sub": "x", "exp": 4_000_000_000u64}))
            .unwrap();
        let jwks = key.jwks();
        let jwk = &jwks["keys"][0];
        let decoding = jsonwebtoken::DecodingKey::from_rsa_components(
            jwk["n"].as_str().unwrap(),
            jwk["e"].as_str().unwrap(),
        )
        .unwrap();
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::RS256);
        validation.required_spec_claims.clear();
        let data =
            jsonwebtoken::decode::<serde_json::Value>(&token, &decoding, &validation).unwrap();
        assert_eq!(data.claims["sub"], "x");
        assert_eq!(
            jsonwebtoken::decode_header(&token).unwrap().kid.unwrap(),
            key.kid
        );
    }

    #[test]
    fn malformed_der_is_refused_not_panicked_on() {
        assert!(pkcs1_of_pkcs8(&[0x30, 0x85, 1, 2]).is_none());
        assert!(pkcs1_of_pkcs8(&[]).is_none());
        assert!(ToolKey::from_pkcs8(b"not a key").is_err());
    }
}
