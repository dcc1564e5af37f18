-- 1: accounts, sessions, submissions (the queue).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    student_id TEXT NOT NULL DEFAULT '',
    section TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL CHECK (role IN ('student', 'instructor')),
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    exercise TEXT NOT NULL,
    filename TEXT NOT NULL,
    source BLOB NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    -- 0: a student's upload; 1: a rejudge, which waits behind uploads.
    priority INTEGER NOT NULL DEFAULT 0,
    -- Bumped at every claim and rejudge: a result is kept only for the attempt it judged.
    attempt INTEGER NOT NULL DEFAULT 0,
    submitted_at INTEGER NOT NULL,
    started_at INTEGER,
    finished_at INTEGER,
    verdict TEXT,
    score INTEGER,
    max_score INTEGER,
    report TEXT,
    error TEXT
);
CREATE INDEX submissions_queue ON submissions(status, priority, id);
CREATE INDEX submissions_user ON submissions(user_id, exercise, id);
CREATE INDEX submissions_started ON submissions(user_id, started_at);
