-- The occupant's own access (docs/occupant-access.md): secrets per occupancy, stored hashed,
-- exchanged for occupant sessions; and the code page's throttle.

-- Links: each notice e-mail carries a freshly issued one, so several are valid at once.
-- token_hash: the SHA-256 of the token (256 random bits); the token itself is never stored.
CREATE TABLE occupant_link (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occupancy_id  integer NOT NULL REFERENCES occupancy (id) ON DELETE CASCADE,
  token_hash    bytea NOT NULL UNIQUE,
  issued_at     timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz
);
CREATE INDEX occupant_link_occupancy ON occupant_link (occupancy_id);

-- Letter codes: one active per occupancy (a reissue revokes the old one); code_hash is scrypt,
-- salted (the code has 50 bits: a fast hash would fall to a search if the table leaked).
CREATE TABLE occupant_letter_code (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occupancy_id  integer NOT NULL REFERENCES occupancy (id) ON DELETE CASCADE,
  code_hash     text NOT NULL,
  issued_at     timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz
);
CREATE UNIQUE INDEX occupant_letter_code_active ON occupant_letter_code (occupancy_id) WHERE revoked_at IS NULL;

-- Occupant sessions: what a secret is exchanged for. Checked on every request against the
-- secret (revoked ends the session), the occupancy's access end and its own expiry.
CREATE TABLE occupant_session (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash    bytea NOT NULL UNIQUE,
  occupancy_id  integer NOT NULL REFERENCES occupancy (id) ON DELETE CASCADE,
  link_id       integer REFERENCES occupant_link (id) ON DELETE CASCADE,
  code_id       integer REFERENCES occupant_letter_code (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  ended_at      timestamptz,
  CHECK ((link_id IS NULL) <> (code_id IS NULL))
);
CREATE INDEX occupant_session_occupancy ON occupant_session (occupancy_id);

-- The code page's attempts per window: keys 'flat:<id>', 'address:<ip>' and 'all'
-- (docs/security.md, "The occupant's code page").
CREATE TABLE occupant_code_throttle (
  key           text PRIMARY KEY,
  attempts      integer NOT NULL,
  window_start  timestamptz NOT NULL
);

-- Days after move-out that the secrets still open the occupant's pages.
INSERT INTO dq_setting (key, value) VALUES ('occupantAccess.graceDays', '90');
