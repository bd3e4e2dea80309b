-- The digest of what a frozen billing export was made of besides its version's snapshots (the flats' order,
-- the devices' lines, the accounts: docs/statements.md, "Publishing again"). Publishing again compares it
-- instead of computing the export's rows anew; null for an export frozen before it was kept (those are
-- compared row by row).
ALTER TABLE billing_snapshot ADD COLUMN inputs text;
