import type { Db } from '@rodmenys/server/db/db.js';
import { computeMoveValues } from '@rodmenys/server/services/occupancies/move-values.js';

/**
 * Moves in the benchmarks' datasets: every flat with a client gets one open occupancy of that client;
 * every `everyNth` of them (in id order) a move on the 15th of `month`: the occupancy ends there, a new
 * client moves in (and becomes the flat's current client), and the moving-day values are computed as
 * the scheduled work does. Answers the flats that moved. The new clients take explicit ids: a dataset
 * loaded with COPY leaves the client sequence behind.
 */
export async function addOccupanciesAndMoves(db: Db, month: string, everyNth: number): Promise<number[]> {
  await db.query(
    `INSERT INTO occupancy (location_id, client_id, name)
     SELECT id, client_id, 'Occupant ' || id FROM location WHERE level = 7 AND client_id IS NOT NULL`,
  );
  if (everyNth <= 0) return [];
  const day = `${month}-15`;
  const { rows } = await db.query<{ id: number }>(
    `WITH f AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM location WHERE level = 7 AND client_id IS NOT NULL)
     SELECT id FROM f WHERE n % $1 = 0 ORDER BY id`,
    [everyNth],
  );
  const moved = rows.map((r) => r.id);
  await db.query('UPDATE occupancy SET move_out = $2 WHERE location_id = ANY ($1::int[])', [moved, day]);
  await db.query(
    `INSERT INTO client (id, code, name)
     SELECT coalesce((SELECT max(id) FROM client), 0) + n, 'NEW-' || f, 'New occupant ' || f
       FROM unnest($1::int[]) WITH ORDINALITY AS x(f, n)`,
    [moved],
  );
  await db.query(
    `INSERT INTO occupancy (location_id, client_id, name, move_in)
     SELECT l.id, c.id, c.name, $2::date FROM location l JOIN client c ON c.code = 'NEW-' || l.id
      WHERE l.id = ANY ($1::int[])`,
    [moved, day],
  );
  await db.query(
    `UPDATE location l SET client_id = c.id FROM client c WHERE c.code = 'NEW-' || l.id AND l.id = ANY ($1::int[])`,
    [moved],
  );
  await computeMoveValues(db, { flatIds: moved });
  return moved;
}
