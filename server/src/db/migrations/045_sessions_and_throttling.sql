-- Sessions and sign-in throttling (docs/security.md).

-- A token carries the generation it was issued under; bumping the account's
-- generation ends every token issued before (password change or reset,
-- deactivation, sign-out everywhere). Tokens from before this migration carry
-- none and count as generation 0.
ALTER TABLE app_user ADD COLUMN session_generation integer NOT NULL DEFAULT 0;

-- Failed sign-ins, shared by every server instance. One row per counter:
--   (account, address)  account = lower(user name), address = the client's
--   (account, '')       the account from addresses it never signed in from
--   ('', address)       the address, whatever the account
-- `blocked_until` is when the next attempt on this counter is heard again.
CREATE TABLE sign_in_throttle (
  account        text NOT NULL,
  address        text NOT NULL,
  failures       integer NOT NULL,
  last_failure   timestamptz NOT NULL,
  blocked_until  timestamptz,
  PRIMARY KEY (account, address),
  CHECK (account <> '' OR address <> '')
);
CREATE INDEX sign_in_throttle_last_failure ON sign_in_throttle (last_failure);

-- Addresses an account has signed in from successfully: the owner is not held
-- back there by failures from other addresses.
CREATE TABLE known_sign_in_address (
  user_id       integer NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  address       text NOT NULL,
  last_sign_in  timestamptz NOT NULL,
  PRIMARY KEY (user_id, address)
);

-- Self-registrations per address in a fixed window.
CREATE TABLE register_throttle (
  address       text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  attempts      integer NOT NULL
);
