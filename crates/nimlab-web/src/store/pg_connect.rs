//! Connecting to PostgreSQL as libpq's URIs say, TLS included.
//!
//! The `postgres` driver understands `sslmode` as `disable`, `prefer` or `require` and knows
//! no `sslrootcert`; nimlab reads both itself, with libpq's meanings, and hands the driver the
//! rest of the URI:
//!
//! | `sslmode`            | encrypted                   | the server's certificate          |
//! |----------------------|-----------------------------|-----------------------------------|
//! | `disable`            | never                       | —                                 |
//! | `allow`, `prefer`    | if the server offers it     | not checked                       |
//! | (none given)         | as `prefer`, libpq's default |                                  |
//! | `require`            | always                      | not checked, unless `sslrootcert` |
//! | `verify-ca`          | always                      | signed by `sslrootcert`           |
//! | `verify-full`        | always                      | signed by it, and names the host  |
//!
//! `sslrootcert` is a PEM file of the authorities to trust, or `system` for the machine's.
//! Over a Unix socket there is no TLS, whatever the mode (PostgreSQL offers none there).

use postgres::config::SslMode;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::path::PathBuf;
use std::sync::Arc;

/// How the server's certificate is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Check {
    /// Encrypted against whoever answers (libpq's `prefer` and `require`).
    Nothing,
    /// Signed by one of the authorities.
    Authority(Roots),
    /// Signed by one of them, for the host the URI names.
    AuthorityAndHost(Roots),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Roots {
    File(PathBuf),
    System,
}

/// A PostgreSQL URI read: the driver's configuration and how to secure the connection.
#[derive(Clone)]
pub struct Target {
    config: postgres::Config,
    /// `None`: no TLS (`sslmode=disable`).
    check: Option<Check>,
}

impl Target {
    /// Reads a `postgres://` or `postgresql://` URI; the error says what is wrong with it.
    pub fn parse(uri: &str) -> Result<Target, String> {
        let (base, query) = match uri.split_once('?') {
            Some((base, query)) => (base, query),
            None => (uri, ""),
        };
        let mut mode = None;
        let mut root = None;
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decoded(value)?;
            match key {
                "sslmode" => mode = Some(value),
                "sslrootcert" => root = Some(value),
                _ => kept.push(pair),
            }
        }
        let roots = root.map(|root| match root.as_str() {
            "system" => Roots::System,
            path => Roots::File(PathBuf::from(path)),
        });
        let (ssl_mode, check) = match mode.as_deref().unwrap_or("prefer") {
            "disable" => (SslMode::Disable, None),
            "allow" | "prefer" => (SslMode::Prefer, Some(Check::Nothing)),
            "require" => (
                SslMode::Require,
                Some(roots.map(Check::Authority).unwrap_or(Check::Nothing)),
            ),
            "verify-ca" | "verify-full" => {
                let Some(roots) = roots else {
                    return Err(format!(
                        "sslmode={} needs sslrootcert=FILE (a PEM file of the authority that signed the server's certificate) or sslrootcert=system",
                        mode.unwrap_or_default()
                    ));
                };
                let check = if mode.as_deref() == Some("verify-ca") {
                    Check::Authority(roots)
                } else {
                    Check::AuthorityAndHost(roots)
                };
                (SslMode::Require, Some(check))
            }
            other => {
                return Err(format!(
                    "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, verify-full"
                ));
            }
        };
        let rest = if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        let mut config: postgres::Config = rest.parse().map_err(|e| format!("{e}"))?;
        // As libpq: `sslmode` does not apply to a Unix socket, which PostgreSQL serves without
        // TLS (the driver would refuse it under `require`).
        let sockets_only = !config.get_hosts().is_empty()
            && config
                .get_hosts()
                .iter()
                .all(|host| matches!(host, postgres::config::Host::Unix(_)));
        if sockets_only {
            config.ssl_mode(SslMode::Disable);
            return Ok(Target {
                config,
                check: None,
            });
        }
        config.ssl_mode(ssl_mode);
        Ok(Target { config, check })
    }

    /// Opens a connection.
    pub fn connect(&self) -> Result<postgres::Client, ConnectError> {
        match &self.check {
            None => Ok(self.config.connect(postgres::NoTls)?),
            Some(check) => {
                let tls = client_config(check)?;
                let connector = tokio_postgres_rustls::MakeRustlsConnect::new(tls);
                Ok(self.config.connect(connector)?)
            }
        }
    }
}

/// Why a connection could not be opened.
#[derive(Debug)]
pub enum ConnectError {
    /// The trusted authorities could not be read.
    Roots(String),
    Postgres(postgres::Error),
}

impl From<postgres::Error> for ConnectError {
    fn from(e: postgres::Error) -> Self {
        ConnectError::Postgres(e)
    }
}

fn percent_decoded(value: &str) -> Result<String, String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value
                .get(i + 1..i + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
                .ok_or_else(|| format!("{value:?} has a % not followed by two hex digits"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("{value:?} is not UTF-8 once decoded"))
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

fn client_config(check: &Check) -> Result<rustls::ClientConfig, ConnectError> {
    let provider = provider();
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| ConnectError::Roots(e.to_string()))?;
    let verifier: Arc<dyn ServerCertVerifier> = match check {
        Check::Nothing => Arc::new(Unchecked(provider)),
        Check::Authority(roots) => Arc::new(AnyHost(verifier(roots, provider)?)),
        Check::AuthorityAndHost(roots) => verifier(roots, provider)?,
    };
    Ok(builder
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

fn verifier(
    roots: &Roots,
    provider: Arc<CryptoProvider>,
) -> Result<Arc<WebPkiServerVerifier>, ConnectError> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::File(path) => {
            let certificates: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
                .and_then(|certificates| certificates.collect())
                .map_err(|e| {
                    ConnectError::Roots(format!(
                        "sslrootcert {}: cannot read its certificates: {e}",
                        path.display()
                    ))
                })?;
            if certificates.is_empty() {
                return Err(ConnectError::Roots(format!(
                    "sslrootcert {}: holds no PEM certificate",
                    path.display()
                )));
            }
            for certificate in certificates {
                store.add(certificate).map_err(|e| {
                    ConnectError::Roots(format!("sslrootcert {}: {e}", path.display()))
                })?;
            }
        }
        Roots::System => {
            let found = rustls_native_certs::load_native_certs();
            store.add_parsable_certificates(found.certs);
            if store.is_empty() {
                return Err(ConnectError::Roots(
                    "sslrootcert=system: this machine has no trusted authorities installed".into(),
                ));
            }
        }
    }
    WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider)
        .build()
        .map_err(|e| ConnectError::Roots(e.to_string()))
}

/// libpq's `prefer` and `require`: the handshake is checked, the certificate is not.
#[derive(Debug)]
struct Unchecked(Arc<CryptoProvider>);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// libpq's `verify-ca`: the chain is checked, the name in the certificate is not.
#[derive(Debug)]
struct AnyHost(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyHost {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_and_sslrootcert_are_read_as_libpq_reads_them() {
        let check = |uri: &str| Target::parse(uri).map(|t| t.check);
        assert_eq!(check("postgresql://u@h/db"), Ok(Some(Check::Nothing)));
        assert_eq!(check("postgresql://u@h/db?sslmode=disable"), Ok(None));
        assert_eq!(
            check("postgresql://u@h/db?sslmode=require"),
            Ok(Some(Check::Nothing))
        );
        assert_eq!(
            check("postgresql://u@h/db?sslmode=require&sslrootcert=%2Fetc%2Fca.pem"),
            Ok(Some(Check::Authority(Roots::File("/etc/ca.pem".into()))))
        );
        assert_eq!(
            check("postgresql://u@h/db?sslrootcert=system&sslmode=verify-full&connect_timeout=5"),
            Ok(Some(Check::AuthorityAndHost(Roots::System)))
        );
        assert!(
            check("postgresql://u@h/db?sslmode=verify-ca")
                .unwrap_err()
                .contains("needs sslrootcert")
        );
        assert!(
            check("postgresql://u@h/db?sslmode=strict")
                .unwrap_err()
                .contains("sslmode=strict is not one of")
        );
        let kept = Target::parse("postgresql://u@h:6000/db?sslmode=require&connect_timeout=7")
            .unwrap()
            .config;
        assert_eq!(kept.get_ports(), [6000]);
        assert_eq!(
            kept.get_connect_timeout(),
            Some(&std::time::Duration::from_secs(7))
        );
        assert_eq!(kept.get_ssl_mode(), SslMode::Require);
        // A Unix socket has no TLS, whatever the mode says (as libpq).
        assert_eq!(
            check("postgresql:///db?host=/run/postgresql&sslmode=require"),
            Ok(None)
        );
    }
}
