-- Read-your-writes with a read replica (docs/scaling.md): after a signed-in user's
-- change, the primary's WAL position at that moment. Read-only work for that user
-- goes to the standby only once the standby has replayed past it; until then it is
-- answered by the primary, so nobody sees their own edit missing.
CREATE TABLE user_write_lsn (
  user_id     integer PRIMARY KEY REFERENCES app_user (id) ON DELETE CASCADE,
  lsn         text NOT NULL,
  written_at  timestamptz NOT NULL DEFAULT now()
);
