//! Connections under abuse: idle sockets, slow heads, a full descriptor table.

use super::*;
