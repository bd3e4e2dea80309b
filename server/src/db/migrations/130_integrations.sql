-- Integrations for the billing system (docs/integration.md): keys for machines,
-- the frozen billing export of each publication, and delivery on publication.

-- An integration key: read-only, scoped to location subtrees, with an expiry.
-- Only the sha256 of the secret is kept (the secret is 256 random bits, so a
-- plain hash is enough); `prefix` is its first characters, to tell keys apart in
-- a list. Checked in the database on every request: a revocation is seen at once
-- by every instance.
CREATE TABLE integration_key (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name          text NOT NULL,
  key_hash      bytea NOT NULL UNIQUE,
  prefix        text NOT NULL,
  location_ids  integer[] NOT NULL CHECK (cardinality(location_ids) > 0),
  expires_at    timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    integer REFERENCES app_user (id) ON DELETE SET NULL,
  last_used_at  timestamptz,
  revoked_at    timestamptz,
  revoked_by    integer REFERENCES app_user (id) ON DELETE SET NULL
);
CREATE INDEX integration_key_prefix ON integration_key (prefix);

-- The billing export of a building's publication, as the exact JSON text of its rows
-- (text, not jsonb, so that the bytes come back as written): a published version
-- exports the same bytes every time.
CREATE TABLE billing_snapshot (
  publication_id  integer PRIMARY KEY REFERENCES statement_publication (id) ON DELETE CASCADE,
  rows            text NOT NULL,
  row_count       integer NOT NULL
);

-- Who is told when a month is published: a webhook (POST signed with `secret`) or an e-mail.
CREATE TABLE billing_receiver (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name         text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('webhook', 'email')),
  url          text,
  email        text,
  language     text NOT NULL DEFAULT 'lt',
  secret       text,
  active       boolean NOT NULL DEFAULT true,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   integer REFERENCES app_user (id) ON DELETE SET NULL,
  CHECK ((kind = 'webhook' AND url IS NOT NULL AND secret IS NOT NULL) OR (kind = 'email' AND email IS NOT NULL))
);

-- One notice to one receiver (queued in the publishing transaction), retried until
-- answered with 2xx or 24 hours have passed.
CREATE TABLE billing_delivery (
  id               integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  receiver_id      integer NOT NULL REFERENCES billing_receiver (id) ON DELETE CASCADE,
  month            date NOT NULL,
  version          integer NOT NULL,
  building_ids     integer[] NOT NULL,
  body             text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  attempts         integer NOT NULL DEFAULT 0,
  delivered_at     timestamptz,
  given_up_at      timestamptz
);
CREATE INDEX billing_delivery_due ON billing_delivery (next_attempt_at)
  WHERE delivered_at IS NULL AND given_up_at IS NULL;

-- Every attempt with the receiver's answer (status and the start of its body) or the error.
CREATE TABLE billing_delivery_attempt (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id   integer NOT NULL REFERENCES billing_delivery (id) ON DELETE CASCADE,
  attempted_at  timestamptz NOT NULL DEFAULT now(),
  status        integer,
  response      text,
  error         text,
  duration_ms   integer NOT NULL
);
CREATE INDEX billing_delivery_attempt_delivery ON billing_delivery_attempt (delivery_id);


-- The scheduled job that sends the notices (services/billing/deliver.ts).
INSERT INTO job (name) VALUES ('billing-delivery') ON CONFLICT (name) DO NOTHING;
