-- 6: deadlines per exercise (a due time, a late period with its penalty per started day)
-- and extensions per student and exercise (a new due time); see `nimlab_core::deadline`.
CREATE TABLE deadlines (
    exercise TEXT PRIMARY KEY,
    due_at INTEGER NOT NULL,
    late_until INTEGER,
    late_penalty REAL NOT NULL DEFAULT 0
);
CREATE TABLE extensions (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    exercise TEXT NOT NULL,
    until INTEGER NOT NULL,
    PRIMARY KEY (user_id, exercise)
);
