-- 4: teaching assistants: the role's CHECK admits `ta` (PostgreSQL changes the constraint in
-- place; SQLite rebuilds the table).
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check
    CHECK (role IN ('student', 'ta', 'instructor'));
