-- Audit log (docs/domain.md §2): every change to master data, users, rights and collector
-- keys. The actor's user name is copied so the entry outlives the account (no
-- foreign key: deleting a user must not touch the log).
CREATE TABLE audit_log (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at              timestamptz NOT NULL DEFAULT clock_timestamp(),
  actor_id        integer,
  actor_username  text,
  kind            text NOT NULL,
  entity          text NOT NULL,
  entity_id       text,
  before          jsonb,
  after           jsonb
);
CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_kind_at ON audit_log (kind, at DESC);
CREATE INDEX audit_log_actor_at ON audit_log (lower(actor_username), at DESC);

-- The product never edits the log; the database refuses it too.
CREATE FUNCTION audit_log_read_only() RETURNS trigger
  LANGUAGE plpgsql
  AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_read_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_read_only();

