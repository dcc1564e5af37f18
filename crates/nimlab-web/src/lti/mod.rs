//! nimlab as an LTI 1.3 tool (1EdTech Core and Assignment and Grade Services): a course's
//! LMS (Canvas, Moodle, ...) launches it, which signs the student in and lands on an
//! exercise, and nimlab sends the score the gradebook counts back to the LMS's gradebook.
//!
//! The flow: the platform calls `/lti/login` (third-party login initiation); nimlab answers
//! with a redirect to the platform's authorisation URL carrying a fresh `state` and `nonce`,
//! which a signed cookie of this browser keeps ([`launch_cookie`]: nothing is stored); the
//! platform posts a signed `id_token` to `/lti/launch`, checked in [`token`]; [`store`] finds
//! or makes the account; `http::lti::outbox` sends scores. The tool's key ([`keys`]) is published at
//! `/lti/jwks`.

pub mod keys;
pub mod launch_cookie;
pub mod outgoing;
pub mod store;
pub mod token;
pub mod tool;
