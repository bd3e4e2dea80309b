-- Delivery of a published month to each occupant (docs/delivery.md): one row per
-- occupancy, month and publication version. An occupant with an e-mail address and
-- consent to electronic delivery gets a notice with a link (channel 'email': queued
-- in the publishing transaction, sent by the scheduled job, retried with backoff
-- when it fails); the others land on the building's print list (channel 'print')
-- until a letter is printed for them. The raw link token is never stored here: the
-- job issues a fresh one when it sends.
CREATE TABLE occupant_delivery (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  month            date NOT NULL CHECK (extract(day FROM month) = 1),
  building_id      integer NOT NULL REFERENCES location (id),
  flat_id          integer NOT NULL REFERENCES location (id),
  occupancy_id     integer NOT NULL REFERENCES occupancy (id) ON DELETE CASCADE,
  version          integer NOT NULL CHECK (version >= 1),
  channel          text NOT NULL CHECK (channel IN ('email', 'print')),
  -- The address the notice goes to, as it was at publication (null for print).
  email            text,
  language         text NOT NULL CHECK (language IN ('lt', 'en')),
  status           text NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'printed')),
  queued_at        timestamptz NOT NULL DEFAULT now(),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  last_attempt_at  timestamptz,
  -- The last failure's reason (the SMTP server's answer or the connection error).
  error            text,
  -- No more attempts after the last failure (attempts exhausted).
  given_up         boolean NOT NULL DEFAULT false,
  sent_at          timestamptz,
  printed_at       timestamptz,
  printed_by       integer REFERENCES app_user (id) ON DELETE SET NULL,
  UNIQUE (occupancy_id, month, version),
  CHECK ((channel = 'email') = (email IS NOT NULL))
);
CREATE INDEX occupant_delivery_month ON occupant_delivery (month, building_id);
-- What the job looks at: e-mails not sent yet whose next attempt is due.
CREATE INDEX occupant_delivery_due ON occupant_delivery (next_attempt_at)
  WHERE channel = 'email' AND status IN ('queued', 'failed') AND NOT given_up;
