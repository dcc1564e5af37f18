-- 2: login throttles (per account for new clients, per device cookie) and the server's
-- own secrets (the key that signs device cookies).
CREATE TABLE login_throttles (
    -- `account:USERNAME` or `device:NONCE`.
    key TEXT PRIMARY KEY,
    -- Whose: a password reset lifts every throttle of the account.
    username TEXT NOT NULL,
    failures BIGINT NOT NULL,
    last_failure_at BIGINT NOT NULL,
    blocked_until BIGINT NOT NULL
);
CREATE INDEX login_throttles_user ON login_throttles(username);
CREATE INDEX login_throttles_last ON login_throttles(last_failure_at);
CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value BYTEA NOT NULL
);
