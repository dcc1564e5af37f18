-- 10: a roster's LMS id names its registration, not only its issuer: registrations may
-- share an issuer (Canvas's cloud), and their subjects are each their own.
ALTER TABLE users ADD COLUMN lms_client_id TEXT NOT NULL DEFAULT '';
