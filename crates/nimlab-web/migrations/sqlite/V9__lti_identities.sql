-- 9: an LMS identity is (platform registration, subject): `lti_identities` replaces
-- `lti_accounts` (keyed by issuer alone), each old link kept for every registration of its
-- issuer. The course contexts whose staff roles count here; whether a platform's launches
-- may be linked to roster accounts (by `lms_id` and `lms_issuer`, or email); which
-- accounts take their role from launches (those launches made: no password, linked).
CREATE TABLE lti_identities (
    platform_id INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    subject TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (platform_id, subject)
);
CREATE INDEX lti_identities_user ON lti_identities(user_id);
INSERT INTO lti_identities (platform_id, subject, user_id)
    SELECT p.id, a.subject, a.user_id FROM lti_accounts a JOIN lti_platforms p ON p.issuer = a.issuer;
DROP TABLE lti_accounts;
CREATE TABLE lti_contexts (
    platform_id INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    context_id TEXT NOT NULL,
    PRIMARY KEY (platform_id, context_id)
);
ALTER TABLE lti_platforms ADD COLUMN link_accounts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN lms_issuer TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN lti_role INTEGER NOT NULL DEFAULT 0;
UPDATE users SET lti_role = 1 WHERE password_hash = ''
    AND id IN (SELECT user_id FROM lti_identities);
