-- Personal data (docs/personal-data.md): how long an occupant's name and contacts are kept after
-- the occupancy's last billed month, and the mark of an occupancy whose personal data is gone.
INSERT INTO dq_setting (key, value) VALUES ('personalData.retentionMonths', '36') ON CONFLICT (key) DO NOTHING;

-- When the anonymisation job removed the occupant's name, contacts and consent (null: not yet).
ALTER TABLE occupancy ADD COLUMN anonymised_at timestamptz;
CREATE INDEX occupancy_to_anonymise ON occupancy (move_out) WHERE anonymised_at IS NULL AND move_out IS NOT NULL;

-- The audit log stays append-only, with one exception: the anonymisation job may replace an
-- expired occupant's personal data inside the entries' before/after. It says so for its own
-- transaction only (SET LOCAL rodmenys.audit_redaction = 'personal-data'); the kind, the entity,
-- the actor and the time of an entry never change, and DELETE and TRUNCATE stay refused.
CREATE OR REPLACE FUNCTION audit_log_read_only() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('rodmenys.audit_redaction', true) = 'personal-data'
     AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.actor_username IS NOT DISTINCT FROM OLD.actor_username AND NEW.kind = OLD.kind
     AND NEW.entity = OLD.entity AND NEW.entity_id IS NOT DISTINCT FROM OLD.entity_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END
$$;

-- The `personal-data` job (services/personal-data/jobs.ts), due at once.
INSERT INTO job (name) VALUES ('personal-data') ON CONFLICT DO NOTHING;
