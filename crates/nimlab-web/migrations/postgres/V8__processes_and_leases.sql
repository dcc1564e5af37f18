-- 8: several processes on one database (PostgreSQL). A claimed job has a lease its judge
-- renews; `judge` names the process that took it (kept after, as who judged it); `lost`
-- counts the leases that ran out on it. `processes` lists the live ones, with the lab
-- each judges by; `site` holds the lab the website serves.
ALTER TABLE submissions ADD COLUMN lease_until BIGINT;
ALTER TABLE submissions ADD COLUMN judge TEXT;
ALTER TABLE submissions ADD COLUMN lost BIGINT NOT NULL DEFAULT 0;
CREATE INDEX submissions_leases ON submissions(status, lease_until);
CREATE TABLE processes (
    name TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('web', 'judge', 'both')),
    workers BIGINT NOT NULL,
    lab TEXT NOT NULL,
    lab_digest TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL,
    refusing TEXT
);
CREATE TABLE site (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
