import { type CollectorLocation, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';

const LOCATION_COLUMNS = `l.id AS "Id", address_label(l) AS "Label", l.level AS "Level"`;

/** The buildings and streets a collector key serves, in address order. */
export async function collectorLocations(db: Queryable, collectorId: number): Promise<CollectorLocation[]> {
  const { rows } = await db.query<CollectorLocation>(
    `SELECT ${LOCATION_COLUMNS} FROM collector_location cl JOIN location l ON l.id = cl.location_id
      WHERE cl.collector_id = $1 ORDER BY 2, 1`,
    [collectorId],
  );
  return rows;
}

/**
 * Replaces the buildings and streets a live collector key serves (400 naming
 * `locationIds` for an unknown location or one that is neither; 404 for an unknown or
 * revoked key); audited as `actor`.
 */
export async function setCollectorLocations(
  db: Db,
  collectorId: number,
  locationIds: number[],
  actor: Actor,
): Promise<CollectorLocation[]> {
  return db.transaction(async (tx) => {
    const { rows: key } = await tx.query<{ name: string }>(
      'SELECT name FROM collector_key WHERE id = $1 AND revoked_at IS NULL FOR UPDATE',
      [collectorId],
    );
    if (!key[0]) throw notFound('collectorKeyNotFound');
    const { rows: found } = await tx.query<{ id: number; level: number }>(
      'SELECT id, level FROM location WHERE id = ANY ($1::int[])',
      [locationIds],
    );
    const levels = new Map(found.map((f) => [f.id, f.level]));
    for (const id of locationIds) {
      const level = levels.get(id);
      if (level === undefined) throw badRequest('collectorLocationNotFound', { id: String(id) }, 'locationIds');
      if (level !== LOCATION_LEVEL.street && level !== LOCATION_LEVEL.building) {
        throw badRequest('collectorLocationLevel', { id: String(id) }, 'locationIds');
      }
    }
    const before = await collectorLocations(tx, collectorId);
    await tx.query('DELETE FROM collector_location WHERE collector_id = $1', [collectorId]);
    await tx.query(
      `INSERT INTO collector_location (collector_id, location_id)
       SELECT $1, unnest($2::int[]) ORDER BY 2`,
      [collectorId, locationIds],
    );
    const after = await collectorLocations(tx, collectorId);
    await recordAudit(tx, {
      actor,
      kind: 'collectorKey.locations',
      entity: 'collectorKey',
      entityId: collectorId,
      before: { Locations: before.map((l) => l.Label) },
      after: { Locations: after.map((l) => l.Label) },
    });
    return after;
  });
}
