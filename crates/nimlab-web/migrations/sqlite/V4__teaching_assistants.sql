-- 4: teaching assistants: the role's CHECK admits `ta`. SQLite cannot change a CHECK in
-- place, so the table is rebuilt (new table, copy, drop, rename; see `migrate` for the
-- foreign keys of sessions and submissions, which keep pointing at `users`).
CREATE TABLE users_with_ta (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    student_id TEXT NOT NULL DEFAULT '',
    section TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL CHECK (role IN ('student', 'ta', 'instructor')),
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    disabled_at INTEGER,
    removed_at INTEGER
);
INSERT INTO users_with_ta (id, username, name, student_id, section, role, password_hash,
        created_at, disabled_at, removed_at)
    SELECT id, username, name, student_id, section, role, password_hash, created_at,
        disabled_at, removed_at FROM users;
DROP TABLE users;
ALTER TABLE users_with_ta RENAME TO users;
