-- The SHA-256 of each frozen billing export's text (docs/integration.md, "Versions"): publishing again
-- compares the export it would freeze now with the frozen one by this digest first, without reading the
-- text back; only a building whose digests differ has its text read and compared row by row. Kept by the
-- table's own trigger whenever the text is written (a scrub of personal data included), so it is never
-- the digest of another text.
ALTER TABLE billing_snapshot ADD COLUMN rows_sha256 bytea;

CREATE FUNCTION billing_snapshot_digest() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.rows_sha256 := sha256(convert_to(NEW.rows, 'UTF8'));
  RETURN NEW;
END $$;
CREATE TRIGGER billing_snapshot_digest BEFORE INSERT OR UPDATE ON billing_snapshot
  FOR EACH ROW EXECUTE FUNCTION billing_snapshot_digest();

UPDATE billing_snapshot SET rows_sha256 = sha256(convert_to(rows, 'UTF8'));
