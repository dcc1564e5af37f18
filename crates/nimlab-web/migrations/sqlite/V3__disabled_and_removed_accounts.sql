-- 3: accounts disabled (cannot log in, kept in the class) and removed (gone, but the row
-- stays as a tombstone so their submissions keep their username for the record).
ALTER TABLE users ADD COLUMN disabled_at INTEGER;
ALTER TABLE users ADD COLUMN removed_at INTEGER;
