-- The back office's side of declared readings (docs/declared-readings.md).

-- A phone declaration: who called, as they gave their name and number (personal data of the
-- occupancy, removed with it).
ALTER TABLE declaration ADD COLUMN caller_name text;
ALTER TABLE declaration ADD COLUMN caller_phone text;
ALTER TABLE declaration ADD CONSTRAINT declaration_phone_caller
  CHECK (channel <> 'phone' OR caller_name IS NOT NULL);

-- What an occupant is told about declarations: the back office's decision on theirs, and the
-- window's reminders (at its start, and two days before its end when nothing came). One row per
-- reminder, device, occupancy and window (the unique index makes the job idempotent). An occupant
-- with an e-mail address and consent gets an e-mail (sent by the `declaration-mail` job); the
-- others' reminders land on the print list.
CREATE TABLE declaration_notice (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind            text NOT NULL CHECK (kind IN ('accepted', 'rejected', 'reminderStart', 'reminderEnd')),
  occupancy_id    integer NOT NULL REFERENCES occupancy (id) ON DELETE CASCADE,
  device_id       integer NOT NULL REFERENCES device (id),
  month           date NOT NULL CHECK (extract(day FROM month) = 1),
  declaration_id  integer REFERENCES declaration (id) ON DELETE CASCADE,
  channel         text NOT NULL CHECK (channel IN ('email', 'print')),
  email           text,
  language        text NOT NULL CHECK (language IN ('lt', 'en')),
  status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  error           text,
  queued_at       timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz,
  CHECK ((kind IN ('accepted', 'rejected')) = (declaration_id IS NOT NULL))
);
CREATE UNIQUE INDEX declaration_notice_reminder ON declaration_notice (occupancy_id, device_id, month, kind)
  WHERE kind IN ('reminderStart', 'reminderEnd');
CREATE INDEX declaration_notice_month ON declaration_notice (month, device_id);
CREATE INDEX declaration_notice_due ON declaration_notice (id) WHERE channel = 'email' AND status IN ('queued', 'failed');

INSERT INTO dq_setting (key, value) VALUES
  -- A month-end figure is recalculated at most this many months back when a late declaration
  -- arrives; an older one changes the next month within reach instead.
  ('declarations.recalcMonths', '3')
ON CONFLICT (key) DO NOTHING;
