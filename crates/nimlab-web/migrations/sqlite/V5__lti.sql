-- 5: LTI 1.3: the platforms (LMSs) registered and their deployments, the accounts launches
-- made or linked (by the LMS's user id or email, which a roster may carry), launches under
-- way, nonces seen, the line items a student's exercise reports to, and the outbox of
-- scores sent to them.
ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN lms_id TEXT NOT NULL DEFAULT '';
CREATE TABLE lti_platforms (
    id INTEGER PRIMARY KEY,
    issuer TEXT NOT NULL,
    client_id TEXT NOT NULL,
    auth_url TEXT NOT NULL,
    jwks_url TEXT NOT NULL,
    token_url TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (issuer, client_id)
);
CREATE TABLE lti_deployments (
    platform_id INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    deployment_id TEXT NOT NULL,
    PRIMARY KEY (platform_id, deployment_id)
);
CREATE TABLE lti_accounts (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (issuer, subject)
);
CREATE TABLE lti_launches (
    state TEXT PRIMARY KEY,
    nonce TEXT NOT NULL,
    platform_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE lti_nonces (
    nonce TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
);
CREATE TABLE lti_line_items (
    user_id INTEGER NOT NULL REFERENCES users(id),
    exercise TEXT NOT NULL,
    platform_id INTEGER NOT NULL REFERENCES lti_platforms(id),
    line_item TEXT NOT NULL,
    subject TEXT NOT NULL,
    PRIMARY KEY (user_id, exercise, line_item)
);
CREATE TABLE lti_scores (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    exercise TEXT NOT NULL,
    platform_id INTEGER NOT NULL,
    line_item TEXT NOT NULL,
    subject TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    -- When the score changed: the timestamp the platform orders scores by.
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'superseded')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try_at INTEGER NOT NULL,
    sent_at INTEGER,
    last_error TEXT
);
CREATE INDEX lti_scores_due ON lti_scores(status, next_try_at);
CREATE INDEX lti_scores_link ON lti_scores(user_id, exercise, line_item, id);
