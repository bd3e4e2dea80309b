-- Monthly statements (docs/statements.md): a building's month is published
-- (its figures frozen) as a numbered version; each version keeps every flat's
-- statement as it was shown. Publishing again adds a version, never edits one.
CREATE TABLE statement_publication (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  month         date NOT NULL CHECK (extract(day FROM month) = 1),
  building_id   integer NOT NULL REFERENCES location (id),
  version       integer NOT NULL CHECK (version >= 1),
  published_at  timestamptz NOT NULL DEFAULT now(),
  published_by  integer REFERENCES app_user (id) ON DELETE SET NULL,
  UNIQUE (month, building_id, version)
);

-- One flat's statement (the API's FlatStatement) in a publication.
CREATE TABLE statement_snapshot (
  publication_id  integer NOT NULL REFERENCES statement_publication (id) ON DELETE CASCADE,
  flat_id         integer NOT NULL,
  statement       jsonb NOT NULL,
  PRIMARY KEY (publication_id, flat_id)
);

-- Users who want an e-mail when statements of their flats are published.
ALTER TABLE app_user ADD COLUMN statement_opt_in boolean NOT NULL DEFAULT false;

-- The e-mails a publication causes: queued in the publishing transaction (one
-- per user and month), sent by the scheduled work, and kept as the delivery
-- log (sent_at and the SMTP server's answer, or the error).
CREATE TABLE statement_delivery (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  month        date NOT NULL,
  user_id      integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  email        text NOT NULL,
  language     text NOT NULL,
  queued_at    timestamptz NOT NULL DEFAULT now(),
  sent_at      timestamptz,
  accepted     boolean,
  error        text
);
CREATE INDEX statement_delivery_pending ON statement_delivery (id) WHERE sent_at IS NULL;

INSERT INTO job (name) VALUES ('statement-mail');
