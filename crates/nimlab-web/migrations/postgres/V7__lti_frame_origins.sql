-- 7: LTI: the origins a platform's pages frame the site from (besides its issuer's), and
-- Deep Linking requests waiting for an instructor's choice of exercises.
ALTER TABLE lti_platforms ADD COLUMN frame_origins TEXT NOT NULL DEFAULT '';
CREATE TABLE lti_deep_links (
    id TEXT PRIMARY KEY,
    platform_id BIGINT NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    deployment_id TEXT NOT NULL,
    return_url TEXT NOT NULL,
    data TEXT,
    accept_multiple BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
