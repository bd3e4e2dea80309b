-- The device lookup of a batch of LoRaWAN uplinks (services/lorawan/store-uplinks.ts; docs/lorawan.md,
-- "How uplinks are written"), as a function: PL/pgSQL keeps the plan of its query for the
-- session (a generic plan, made once), so a batch no longer pays the parsing and planning of a five-table join (about a third
-- of the lookup's cost on PostgreSQL, docs/benchmarks.md, "LoRaWAN ingest"); the statement sent is
-- `SELECT … FROM lorawan_devices($1, $2)`. A plan kept in the database's own session also holds
-- behind a pooler in transaction mode (docs/scaling.md), where prepared statements would not.
-- Per (DevEUI, connection) pair: the device with that DevEUI, its kind, model and decoder, its
-- model's field mapping (models matched with case and spacing ignored, as lorawan_mapping.model_key),
-- whether the connection serves the device's building, and `fp`, all of that in one text: the
-- batch's write compares it with the one the server decoded with (a remembered lookup, checked in
-- the write: docs/lorawan.md, "How uplinks are written").
CREATE FUNCTION lorawan_devices(dev_euis text[], connection_ids integer[])
  RETURNS TABLE (dev_eui text, connection_id integer, id integer, kind text, model text, decoder text,
                 value_field text, unit text, scale float8, time_field text, served boolean, fp text)
  -- One plan for every call: a plan made for each batch's arrays would be planned again every time.
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT q.dev_eui, q.connection_id, d.id, t.data_load_proc::text, d.model::text, d.decoder,
         m.value_field, m.unit, m.scale::float8, m.time_field,
         EXISTS (SELECT FROM lns_connection_location cl
                  WHERE cl.connection_id = q.connection_id AND cl.location_id = ANY (l.path)),
         row(d.id, t.data_load_proc, d.model, d.decoder, m.value_field, m.unit, m.scale, m.time_field)::text
    FROM unnest(dev_euis, connection_ids) AS q(dev_eui, connection_id)
    JOIN device d ON d.dev_eui = q.dev_eui
    JOIN device_type t ON t.id = d.device_type_id
    JOIN location l ON l.id = d.location_id
    LEFT JOIN lorawan_mapping m ON m.model_key = lower(regexp_replace(trim(d.model), '\s+', ' ', 'g'));
END
$$;
