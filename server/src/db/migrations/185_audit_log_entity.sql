-- The audit log's entries about one record (docs/personal-data.md): an access request reads those of an
-- occupant's occupancies and account, the anonymisation job rewrites them. Without this index each such
-- read scans the whole log (a million entries and more after a few registers); with it, only the
-- record's own entries are read. Measured in `npm run bench:search-access -w bench`.
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id);
