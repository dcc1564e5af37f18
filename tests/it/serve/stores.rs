//! Results that cannot be stored, and a database that cannot be written.

use super::*;
