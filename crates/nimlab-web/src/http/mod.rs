//! The website over HTTP: connections, the router and its guards, and the handlers, grouped
//! by area (pages, API, files, logins, uploads, LTI).

pub(crate) mod api;
pub(crate) mod budget;
pub(crate) mod connections;
pub(crate) mod fail;
pub(crate) mod files;
pub(crate) mod guards;
pub(crate) mod listing;
pub(crate) mod login;
pub(crate) mod lti;
pub(crate) mod pages;
pub(crate) mod router;
pub(crate) mod state;
pub(crate) mod throttle;
pub(crate) mod upload;
