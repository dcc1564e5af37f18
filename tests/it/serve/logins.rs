//! Logging in under guessing and floods: throttles, device cookies, resets.

use super::*;
