//! A launch's `id_token`, checked as LTI 1.3 (1EdTech Security Framework and Core) says:
//! signed with RS256 by a key the platform publishes (found by `kid`), issued by the
//! platform for this tool (`iss`, `aud`, `azp`), fresh (`exp`, `iat`, `nbf`), for a deployment
//! registered here, a resource link launch or Deep Linking request of LTI 1.3.0. Its nonce
//! is checked by the caller against the launch it started.

use jsonwebtoken::jwk::{AlgorithmParameters, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use nimlab_core::escape;
use serde_json::Value;

pub const CLAIM: &str = "https://purl.imsglobal.org/spec/lti/claim/";
pub const AGS_CLAIM: &str = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint";
pub const SCORE_SCOPE: &str = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
/// Deep Linking 2.0's claims.
pub const DEEP_LINKING: &str = "https://purl.imsglobal.org/spec/lti-dl/claim/";
/// How far a platform's clock may be from ours.
pub const LEEWAY_SECONDS: u64 = 60;
/// An id_token issued longer ago than this is refused, whatever its `exp` says.
pub const MAX_AGE_SECONDS: u64 = 3600;

/// What a platform registered here expects of its tokens.
pub struct Expected<'a> {
    pub issuer: &'a str,
    pub client_id: &'a str,
    pub deployments: &'a [String],
}

/// The role a launch gives, from the course (membership) roles alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CourseRole {
    Learner,
    TeachingAssistant,
    Instructor,
}

/// What nimlab takes from a valid launch.
#[derive(Debug, Clone)]
pub struct Launch {
    pub subject: String,
    pub nonce: String,
    pub name: String,
    pub email: String,
    /// The course role the launch claims; it counts only in a context registered for the
    /// platform (see `store::account_for`).
    pub role: CourseRole,
    /// The course (the context claim's `id`) the launch comes from, if it names one.
    pub context_id: Option<String>,
    pub deployment_id: String,
    /// The resource link's custom parameter `exercise`, if any.
    pub custom_exercise: Option<String>,
    pub target_link_uri: Option<String>,
    /// The AGS line item scores go to, where the platform gave one and allows scores.
    pub line_item: Option<String>,
    /// A Deep Linking request (the instructor picks exercises to add to the course) rather
    /// than a resource link launch.
    pub deep_link: Option<DeepLinkRequest>,
}

/// What a Deep Linking request asks for (its `deep_linking_settings` claim).
#[derive(Debug, Clone)]
pub struct DeepLinkRequest {
    /// Where the tool's answer is posted (form field `JWT`).
    pub return_url: String,
    /// Sent back as it came.
    pub data: Option<Value>,
    pub accept_multiple: bool,
}

/// The `kid` of a token's header, if it is signed with RS256 at all. The header is read
/// here, not by the JWT library, so that any other `alg` (`none` too) is named as such.
pub fn rs256_kid(token: &str) -> Result<String, String> {
    use base64::Engine;
    let header = token
        .split('.')
        .next()
        .and_then(|part| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(part)
                .ok()
        })
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .filter(|_| token.split('.').count() == 3)
        .ok_or_else(|| "the id_token is not a JWT".to_string())?;
    let alg = header.get("alg").and_then(Value::as_str).unwrap_or("");
    if alg != "RS256" {
        return Err(format!(
            "the id_token is signed with {}; nimlab accepts RS256 only",
            nimlab_core::escape::quoted(alg, 40)
        ));
    }
    header
        .get("kid")
        .and_then(Value::as_str)
        .filter(|kid| !kid.is_empty())
        .map(str::to_string)
        .ok_or_else(|| "the id_token's header names no key (kid)".to_string())
}

/// The key `kid` of a platform's JWK Set, if it holds an RSA key by that id for RS256.
pub fn key_of(set: &JwkSet, kid: &str) -> Option<DecodingKey> {
    let jwk = set.find(kid)?;
    if !matches!(jwk.algorithm, AlgorithmParameters::RSA(_)) {
        return None;
    }
    if let Some(alg) = jwk.common.key_algorithm
        && alg != jsonwebtoken::jwk::KeyAlgorithm::RS256
    {
        return None;
    }
    DecodingKey::from_jwk(jwk).ok()
}

/// Checks `token` against `key` and what the platform registered; `now` in seconds.
pub fn check(
    token: &str,
    key: &DecodingKey,
    expected: &Expected,
    now: u64,
) -> Result<Launch, String> {
    let mut validation = Validation::new(Algorithm::RS256);
    validation.algorithms = vec![Algorithm::RS256];
    validation.leeway = LEEWAY_SECONDS;
    validation.set_issuer(&[expected.issuer]);
    validation.set_audience(&[expected.client_id]);
    validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
    let claims = jsonwebtoken::decode::<Value>(token, key, &validation)
        .map_err(|e| refused_because(&e))?
        .claims;
    if let Some(claim) = claim_with_nul(&claims, "") {
        // PostgreSQL's text cannot hold one, and no name, id or URL has one.
        return Err(format!(
            "the id_token's claim {} holds a NUL character",
            escape::quoted(&claim, 200)
        ));
    }
    let text = |name: &str| claims.get(name).and_then(Value::as_str).unwrap_or("");
    let lti = |name: &str| {
        claims
            .get(format!("{CLAIM}{name}"))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    // Several audiences: the authorised party must be this tool.
    let audiences = match &claims["aud"] {
        Value::Array(list) => list.len(),
        _ => 1,
    };
    let azp = claims.get("azp").and_then(Value::as_str);
    if (audiences > 1 && azp.is_none()) || azp.is_some_and(|azp| azp != expected.client_id) {
        return Err("the id_token's authorised party (azp) is not this tool".into());
    }
    check_times(&claims, now)?;
    let deployment_id = launch_kind(&claims, expected)?;
    let subject = text("sub").to_string();
    if subject.is_empty() {
        return Err("the launch names no user (sub)".into());
    }
    let nonce = text("nonce").to_string();
    if nonce.is_empty() {
        return Err("the id_token carries no nonce".into());
    }
    let name = match text("name") {
        "" => format!("{} {}", text("given_name"), text("family_name"))
            .trim()
            .to_string(),
        name => name.to_string(),
    };
    let roles: Vec<&str> = claims
        .get(format!("{CLAIM}roles"))
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Ok(Launch {
        subject,
        nonce,
        name,
        email: text("email").to_string(),
        role: course_role(&roles),
        context_id: claims
            .get(format!("{CLAIM}context"))
            .and_then(|c| c.get("id"))
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty())
            .map(str::to_string),
        deployment_id,
        custom_exercise: claims
            .get(format!("{CLAIM}custom"))
            .and_then(|c| c.get("exercise"))
            .and_then(Value::as_str)
            .map(str::to_string),
        target_link_uri: Some(lti("target_link_uri").to_string()).filter(|t| !t.is_empty()),
        line_item: score_line_item(&claims),
        deep_link: deep_link_request(&claims)?,
    })
}

/// The first claim (its path, as `a.b[2]`) whose name or text holds a NUL character.
fn claim_with_nul(value: &Value, path: &str) -> Option<String> {
    match value {
        Value::String(text) => text.contains('\0').then(|| path.to_string()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| claim_with_nul(item, &format!("{path}[{i}]"))),
        Value::Object(fields) => fields.iter().find_map(|(name, item)| {
            let inner = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            if name.contains('\0') {
                Some(inner)
            } else {
                claim_with_nul(item, &inner)
            }
        }),
        _ => None,
    }
}

/// Checks when the token was issued (`iat`: not in the future, at most an hour ago) and
/// from when it holds (`nbf`: optional, but when present a time not in the future), with
/// [`LEEWAY_SECONDS`] for the clocks; `now` in seconds.
fn check_times(claims: &Value, now: u64) -> Result<(), String> {
    // A NumericDate may have a fraction (RFC 7519, section 2).
    let iat = claims
        .get("iat")
        .ok_or("the id_token carries no issue time (iat)")?
        .as_f64()
        .filter(|iat| iat.is_finite() && *iat >= 0.0)
        .ok_or("the id_token's issue time (iat) is not a time (seconds)")?;
    let now_f = now as f64;
    if iat > now_f + LEEWAY_SECONDS as f64 {
        return Err("the id_token was issued in the future (iat): check the clocks".into());
    }
    if iat + (MAX_AGE_SECONDS as f64) < now_f {
        return Err("the id_token was issued more than an hour ago (iat)".into());
    }
    if let Some(nbf) = claims.get("nbf") {
        let nbf = nbf
            .as_f64()
            .ok_or("the id_token's nbf is not a time (seconds)")?;
        if nbf > (now + LEEWAY_SECONDS) as f64 {
            return Err("the id_token is not valid yet (nbf)".into());
        }
    }
    Ok(())
}

/// The settings of a Deep Linking request; None for a resource link launch.
fn deep_link_request(claims: &Value) -> Result<Option<DeepLinkRequest>, String> {
    if claims[format!("{CLAIM}message_type")] != "LtiDeepLinkingRequest" {
        return Ok(None);
    }
    let settings = &claims[format!("{DEEP_LINKING}deep_linking_settings")];
    let return_url = settings["deep_link_return_url"]
        .as_str()
        .filter(|url| !url.is_empty())
        .ok_or("the Deep Linking request has no deep_link_return_url")?;
    let accepts_links = settings["accept_types"]
        .as_array()
        .is_some_and(|types| types.iter().any(|t| t == "ltiResourceLink"));
    if !accepts_links {
        return Err(
            "the Deep Linking request does not accept resource links (accept_types), the only kind nimlab makes"
                .into(),
        );
    }
    Ok(Some(DeepLinkRequest {
        return_url: return_url.to_string(),
        data: Some(settings["data"].clone()).filter(|d| !d.is_null()),
        accept_multiple: settings["accept_multiple"].as_bool().unwrap_or(true),
    }))
}

/// Checks that a launch is an LTI 1.3.0 resource link launch (or Deep Linking request) of a
/// registered deployment;
/// returns the deployment.
fn launch_kind(claims: &Value, expected: &Expected) -> Result<String, String> {
    let lti = |name: &str| {
        claims
            .get(format!("{CLAIM}{name}"))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    if lti("version") != "1.3.0" {
        return Err(format!(
            "the launch is LTI version {:?}; nimlab takes 1.3.0",
            lti("version")
        ));
    }
    if !matches!(
        lti("message_type"),
        "LtiResourceLinkRequest" | "LtiDeepLinkingRequest"
    ) {
        return Err(format!(
            "the launch is a {:?} message; nimlab takes resource link launches (LtiResourceLinkRequest) and Deep Linking requests",
            lti("message_type")
        ));
    }
    let deployment_id = lti("deployment_id").to_string();
    if !expected.deployments.contains(&deployment_id) {
        return Err(format!(
            "the deployment {deployment_id:?} is not registered for this platform (nimlab lti add-platform --deployment-id)"
        ));
    }
    Ok(deployment_id)
}

/// The line item of the AGS claim, where its scopes allow posting scores.
fn score_line_item(claims: &Value) -> Option<String> {
    let endpoint = claims.get(AGS_CLAIM)?;
    let scopes = endpoint.get("scope").and_then(Value::as_array)?;
    if !scopes.iter().any(|s| s.as_str() == Some(SCORE_SCOPE)) {
        return None;
    }
    endpoint
        .get("lineitem")
        .and_then(Value::as_str)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
}

/// The course role from the LTI roles claim: membership (context) roles only, never
/// institution or system roles. Every teaching-assistant sub-role of Instructor in the LIS
/// vocabulary (`Instructor#TeachingAssistant`, `#TeachingAssistantSection`, ..., and
/// `#Grader`) is a TA's; a TA is also sent as an instructor by some platforms, so a TA role
/// wins over an instructor's; no course role at all is a learner's.
pub fn course_role(roles: &[&str]) -> CourseRole {
    const MEMBERSHIP: &str = "http://purl.imsglobal.org/vocab/lis/v2/membership";
    let mut instructor = false;
    for role in roles {
        let role = role.trim();
        // Full membership roles and sub-roles; LTI 1.3 also allows the bare context names.
        let local = match role.strip_prefix(MEMBERSHIP) {
            Some(rest) if rest.starts_with(['#', '/']) => &rest[1..],
            Some(_) => continue,
            None if !role.contains(':') => role,
            None => continue,
        };
        let (main, sub) = match local.split_once('#') {
            Some((main, sub)) => (main, Some(sub)),
            None => (local, None),
        };
        let assistant = |sub: &str| sub.starts_with("TeachingAssistant") || sub == "Grader";
        match (main, sub) {
            ("TeachingAssistant", _) => return CourseRole::TeachingAssistant,
            ("Instructor", Some(sub)) if assistant(sub) => return CourseRole::TeachingAssistant,
            ("Instructor", _) => instructor = true,
            _ => {}
        }
    }
    if instructor {
        CourseRole::Instructor
    } else {
        CourseRole::Learner
    }
}

fn refused_because(error: &jsonwebtoken::errors::Error) -> String {
    use jsonwebtoken::errors::ErrorKind;
    match error.kind() {
        ErrorKind::InvalidSignature => {
            "the id_token's signature does not match the platform's key".into()
        }
        ErrorKind::ExpiredSignature => "the id_token has expired (exp)".into(),
        ErrorKind::InvalidIssuer => {
            "the id_token's issuer (iss) is not the platform that started the launch".into()
        }
        ErrorKind::InvalidAudience => {
            "the id_token is not meant for this tool (aud is not its client id)".into()
        }
        ErrorKind::ImmatureSignature => "the id_token is not valid yet (nbf)".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the id_token lacks the claim {claim:?}"),
        ErrorKind::InvalidAlgorithm => {
            "the id_token's algorithm does not match the platform's key".into()
        }
        other => format!("the id_token is not valid ({other:?})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = "http://purl.imsglobal.org/vocab/lis/v2/membership";

    #[test]
    fn course_roles_decide_and_institution_roles_do_not() {
        let role = |roles: &[&str]| course_role(roles);
        assert_eq!(role(&[&format!("{M}#Learner")]), CourseRole::Learner);
        assert_eq!(role(&[&format!("{M}#Instructor")]), CourseRole::Instructor);
        assert_eq!(
            role(&[
                &format!("{M}#Instructor"),
                &format!("{M}/Instructor#TeachingAssistant")
            ]),
            CourseRole::TeachingAssistant
        );
        assert_eq!(
            role(&[
                &format!("{M}#TeachingAssistant"),
                &format!("{M}#Instructor")
            ]),
            CourseRole::TeachingAssistant
        );
        assert_eq!(
            role(&[
                "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor",
                "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator",
                &format!("{M}#Learner"),
            ]),
            CourseRole::Learner
        );
        assert_eq!(role(&["Instructor"]), CourseRole::Instructor);
        assert_eq!(role(&[]), CourseRole::Learner);
    }

    #[test]
    fn every_teaching_assistant_sub_role_is_a_tas_and_other_instructor_sub_roles_instructors() {
        for sub in [
            "TeachingAssistant",
            "TeachingAssistantSection",
            "TeachingAssistantSectionAssociation",
            "TeachingAssistantOffering",
            "TeachingAssistantTemplate",
            "TeachingAssistantGroup",
            "Grader",
        ] {
            let full = format!("{M}/Instructor#{sub}");
            // Sent alone, or beside the Instructor role as platforms do.
            assert_eq!(
                course_role(&[&full]),
                CourseRole::TeachingAssistant,
                "{sub}"
            );
            let both = [format!("{M}#Instructor"), full.clone()];
            let both: Vec<&str> = both.iter().map(String::as_str).collect();
            assert_eq!(course_role(&both), CourseRole::TeachingAssistant, "{sub}");
            let short = format!("Instructor#{sub}");
            assert_eq!(
                course_role(&[&short]),
                CourseRole::TeachingAssistant,
                "{sub}"
            );
        }
        for sub in ["PrimaryInstructor", "SecondaryInstructor", "Lecturer"] {
            let full = format!("{M}/Instructor#{sub}");
            assert_eq!(course_role(&[&full]), CourseRole::Instructor, "{sub}");
        }
        // A look-alike outside the vocabulary's path is nothing.
        let fake = format!("{M}x/Instructor");
        assert_eq!(course_role(&[&fake]), CourseRole::Learner);
        assert_eq!(
            course_role(&[&format!("{M}/Learner#Instructor")]),
            CourseRole::Learner
        );
    }
}
