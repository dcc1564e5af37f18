//! `nimlab lti add-platform|list`: the LMS platforms that may launch the website (LTI 1.3).

use crate::cli::LtiCommand;
use nimlab_core::error::{Error, Result};
use nimlab_core::escape::one_line;
use nimlab_core::{exit, fsutil};
use nimlab_web::lti::outgoing::allowed;
use nimlab_web::lti::store::{self, NewPlatform};
use nimlab_web::store::db::Db;

pub fn lti(command: &LtiCommand) -> Result<u8> {
    match command {
        LtiCommand::AddPlatform {
            issuer,
            client_id,
            deployment_id,
            auth_url,
            jwks_url,
            token_url,
            frame_origins,
            contexts,
            forget_contexts,
            link_accounts,
            db,
        } => {
            let platform = NewPlatform {
                issuer: text("--issuer", issuer)?,
                client_id: text("--client-id", client_id)?,
                deployment_id: text("--deployment-id", deployment_id)?,
                auth_url: url("--auth-url", auth_url)?,
                jwks_url: url("--jwks-url", jwks_url)?,
                token_url: url("--token-url", token_url)?,
                frame_origins: frame_origins
                    .iter()
                    .map(|origin| frame_origin(origin))
                    .collect::<Result<_>>()?,
                link_accounts: *link_accounts,
                contexts: contexts
                    .iter()
                    .map(|c| text("--context", c))
                    .collect::<Result<_>>()?,
                forget_contexts: forget_contexts
                    .iter()
                    .map(|c| text("--forget-context", c))
                    .collect::<Result<_>>()?,
            };
            fsutil::private_from_now_on();
            let database = Db::open(db)?;
            let new = database.with(|c| store::add_platform(c, &platform))?;
            println!(
                "{}: {} {} (client {}, deployment {})",
                nimlab_web::store::db::shown(db),
                if new { "registered" } else { "updated" },
                platform.issuer,
                platform.client_id,
                platform.deployment_id
            );
            Ok(exit::SUCCESS)
        }
        LtiCommand::List { db } => {
            let database = Db::open(db)?;
            let (platforms, (pending, failed)) =
                database.with(|c| Ok((store::platforms(c)?, store::outbox_counts(c)?)))?;
            if platforms.is_empty() {
                println!("no platform registered (nimlab lti add-platform)");
            }
            for p in &platforms {
                println!("{}", one_line(&p.issuer));
                println!("  client id:   {}", one_line(&p.client_id));
                println!("  deployments: {}", one_line(&p.deployments.join(", ")));
                println!("  login URL:   {}", one_line(&p.auth_url));
                println!("  keys (JWKS): {}", one_line(&p.jwks_url));
                println!("  token URL:   {}", one_line(&p.token_url));
                println!(
                    "  may frame:   {}",
                    one_line(&p.frame_ancestors().join(" "))
                );
                print_who_may_launch(p);
            }
            println!("scores: {pending} waiting, {failed} failed");
            Ok(exit::SUCCESS)
        }
    }
}

/// A value of `lti add-platform` that is not a URL: without control characters, bounded.
fn text(flag: &str, value: &str) -> Result<String> {
    let value = value.trim();
    if value.is_empty() || value.chars().any(char::is_control) || value.len() > 1000 {
        return Err(Error::usage(format!(
            "{flag}: give a non-empty value without control characters (at most 1000 bytes)"
        )));
    }
    Ok(value.to_string())
}

/// A URL nimlab may call.
fn url(flag: &str, value: &str) -> Result<String> {
    allowed(value)
        .map(|_| value.trim().to_string())
        .map_err(|why| Error::usage(format!("{flag}: {why}")))
}

/// The courses whose staff roles count, and whether launches link to roster accounts.
fn print_who_may_launch(p: &store::Platform) {
    println!(
        "  staff roles from courses: {}",
        if p.contexts.is_empty() {
            "none (lti add-platform --context ID)".to_string()
        } else {
            nimlab_core::escape::terminal(&p.contexts.join(", ")).into_owned()
        }
    );
    println!(
        "  links roster accounts: {}",
        if p.link_accounts { "on" } else { "off" }
    );
}

/// A `--frame-origin`: an https origin (or http on a loopback address, for tests), written
/// as the origin alone, which is what `frame-ancestors` compares.
fn frame_origin(value: &str) -> Result<String> {
    let refuse = |why: &str| Error::usage(format!("--frame-origin {value}: {why}"));
    allowed(value).map_err(|why| refuse(&why))?;
    let url = url::Url::parse(value.trim()).map_err(|_| refuse("not a URL"))?;
    let origin = url.origin().ascii_serialization();
    if url.path() != "/" || url.query().is_some() || origin != value.trim().trim_end_matches('/') {
        return Err(refuse(&format!(
            "give the origin alone, like {origin} (scheme, host and port; no path)"
        )));
    }
    Ok(origin)
}
