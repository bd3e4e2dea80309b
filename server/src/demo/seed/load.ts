import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Tx } from '../../db/db.js';
import { buildingIdOf } from '../../services/sql.js';
import type { MasterData } from './master-data.js';

/** One CSV field: empty = NULL; quoted when it holds a separator, a quote or a line break. */
function csvField(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return s === '' || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvRows = (rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string[] =>
  rows.map((r) => `${r.map(csvField).join(',')}\n`);

export async function loadMasterData(tx: Tx, m: MasterData): Promise<void> {
  await tx.copyIn(
    'COPY client (id, code, name, type_code, type_name, category_code, category_name) FROM STDIN WITH (FORMAT csv)',
    csvRows(m.clients),
  );
  await tx.copyIn(
    `COPY location (id, parent_id, level, name, flat_order, path, country, county, region, city, street, building, flat, client_id)
     FROM STDIN WITH (FORMAT csv)`,
    csvRows(
      m.locations.map((l) => [
        l.id,
        l.parentId,
        l.level,
        l.name,
        l.flatOrder,
        `{${l.path.join(',')}}`,
        ...Array.from({ length: 7 }, (_, i) => l.address[i] ?? null),
        l.clientId,
      ]),
    ),
  );
  await tx.copyIn(
    'COPY object (id, location_id, code, name, type_code, type_name, category_code, category_name) FROM STDIN WITH (FORMAT csv)',
    csvRows(m.objects),
  );
  await tx.copyIn(
    `COPY device (id, device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at, model,
                  role)
     FROM STDIN WITH (FORMAT csv)`,
    csvRows(
      m.devices.map((d) => [
        d.deviceId,
        d.deviceTypeId,
        d.locationId,
        d.deviceCode,
        d.counterCode,
        d.description,
        d.ratingFactor,
        d.installedAt,
        d.model,
        d.role ?? null,
      ]),
    ),
  );
  // How each device is read (docs/device-lifetime.md), so the remote-reading register has every kind:
  // every third building is read on a walk-by, and so is one device in seven elsewhere (its readings
  // come on a walk-by drive), the rest remotely (no collector hears the demo). Read by hand are only
  // the declared meters (seed/declared.ts): a meter marked by hand is one its occupant declares, so
  // it must not also get the demo's readings. Not drawn from rng: the readings stay as they were.
  await tx.query(
    `UPDATE device d SET read_method = CASE WHEN ${buildingIdOf('l')} % 3 = 0 OR d.id % 7 = 0 THEN 'walkby'
                                          ELSE 'remote' END
       FROM location l WHERE l.id = d.location_id AND d.id = ANY ($1::int[])`,
    [m.devices.map((d) => d.deviceId)],
  );
  // Each flat's client lives there, since before the records (docs/occupancies.md).
  await tx.query(
    `INSERT INTO occupancy (location_id, client_id, name)
     SELECT l.id, l.client_id, c.name FROM location l JOIN client c ON c.id = l.client_id WHERE l.level = ${LOCATION_LEVEL.flat}`,
  );
  // Explicit ids were loaded: move the identity sequences past them.
  for (const table of ['client', 'location', 'object', 'device']) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${table}), false)`,
    );
  }
}

/**
 * Runs `fn` with the primary key and foreign keys of `table` dropped and adds them
 * back after: one index build over the loaded rows and one validating join instead
 * of work per row (PostgreSQL's advice for bulk loads, "Populating a Database").
 */
export async function withoutConstraints<T>(tx: Tx, table: string, fn: () => Promise<T>): Promise<T> {
  const { rows } = await tx.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE conrelid = $1::regclass AND contype IN ('p', 'f') ORDER BY contype DESC, conname`,
    [table],
  );
  for (const c of rows) await tx.query(`ALTER TABLE ${table} DROP CONSTRAINT "${c.name}"`);
  const result = await fn();
  for (const c of rows) await tx.query(`ALTER TABLE ${table} ADD CONSTRAINT "${c.name}" ${c.def}`);
  return result;
}

export interface Moments {
  dataStart: number;
  monthStart: number;
  gapStart: number;
}

/** Calendar points in the session's (the provider's) time zone. */
export async function moments(tx: Tx, now: Date, months: number): Promise<Moments> {
  const { rows } = await tx.query<Moments>(
    `SELECT (extract(epoch FROM date_trunc('month', $1::timestamptz) - make_interval(months => $2) - interval '1 day') * 1000)::float8 AS "dataStart",
            (extract(epoch FROM date_trunc('month', $1::timestamptz)) * 1000)::float8 AS "monthStart",
            (extract(epoch FROM date_trunc('day', $1::timestamptz - interval '20 days')) * 1000)::float8 AS "gapStart"`,
    [now.toISOString(), months],
  );
  return rows[0]!;
}
