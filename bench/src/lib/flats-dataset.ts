import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db } from '@rodmenys/server/db/db.js';
import { refreshMonthEnds } from '@rodmenys/server/services/data-quality/refresh-month-ends.js';
import { writeHeatMethodVersion } from '@rodmenys/server/services/heat-methods/heat-methods.js';
import { monthPartitions, withoutKeys } from './bulk-load.js';
import { createDataset } from './dataset.js';
import { heatMethodBody } from './heat-methods.js';
import { addOccupanciesAndMoves } from './moves.js';

/**
 * bench:statements' dataset filled into a migrated `db` as bench:every-flat and bench:publish-profile
 * measure it (docs/benchmarks.md): readings from 14 months back to `now`, month ends kept, one flat in
 * `movesEvery` with a move in `month`, every flat an area, every other building under a heat method
 * and the rest a version `none` (as bench:statements' heat-method step).
 */
export async function fillFlatsDataset(
  db: Db,
  size: { devices: number; flats: number; readings: number; movesEvery: number },
  month: string,
  now: Date,
  log: (message: string) => void,
): Promise<void> {
  const coverFrom = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth() - 2, 1));
  const dataset = createDataset({
    devices: size.devices,
    flats: size.flats,
    readings: size.readings,
    end: now,
    coverFrom,
  });
  log(`filling: ${dataset.deviceCount} devices, ${size.readings} readings`);
  for (const { sql, rows } of dataset.masterData()) await db.copyIn(sql, rows);
  await monthPartitions(db, dataset.start, dataset.end);
  await withoutKeys(db, 'reading', () => db.copyIn(dataset.readingsSql, dataset.readings()));
  await db.query('SELECT keep_last_seen(array(SELECT id FROM device))');
  await db.exec('ANALYZE');
  log('month ends');
  await refreshMonthEnds(db, now, { ensure: true });
  await addOccupanciesAndMoves(db, month, size.movesEvery);
  await db.query(
    `UPDATE location SET area_m2 = 40 + (id % 7) * 9.5 WHERE level = ${LOCATION_LEVEL.flat} AND area_m2 IS NULL`,
  );
  const { rows: buildings } = await db.query<{ id: number; flats: number[] }>(
    `SELECT b.id, array_agg(f.id ORDER BY f.id) AS flats FROM location b
       JOIN location f ON f.parent_id = b.id AND f.level = ${LOCATION_LEVEL.flat}
      WHERE b.level = ${LOCATION_LEVEL.building} GROUP BY b.id ORDER BY b.id`,
  );
  for (const [i, b] of buildings.entries())
    await writeHeatMethodVersion(db, null, { id: b.id, path: String(b.id) }, month, heatMethodBody(month, b.flats, i));
  await db.exec('ANALYZE');
  log('filled');
}
