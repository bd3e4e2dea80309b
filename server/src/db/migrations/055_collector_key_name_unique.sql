-- Collector key names are unique, ignoring case and surrounding blanks: the Collectors page
-- tells keys apart by name. Names already shared get their key number appended first.
UPDATE collector_key k
   SET name = trim(k.name) || ' (' || k.id || ')'
 WHERE EXISTS (SELECT 1 FROM collector_key o WHERE lower(trim(o.name)) = lower(trim(k.name)) AND o.id < k.id);

CREATE UNIQUE INDEX collector_key_name_unique ON collector_key (lower(trim(name)));
