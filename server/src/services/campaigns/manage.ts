import type { CampaignDetail, CampaignVisit } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { verifiedFromSql } from '../lifetime/device-dates.js';
import { buildingIdOf } from '../sql.js';
import { getCampaign } from './progress.js';

/*
 * Group 1 manages exchange campaigns (docs/device-lifetime.md, "Exchange campaigns"): creates one
 * from devices in service, renames, deletes it, plans a building's visit day. Every change is in
 * the audit log (entity `campaign`), in the transaction that makes it.
 */

interface Stored {
  id: number;
  name: string;
  started_on: string;
}

/** The campaign row locked for a change; 404 when there is none. */
async function lockCampaign(tx: Queryable, id: number): Promise<Stored> {
  const { rows } = await tx.query<Stored>(
    `SELECT id, name, to_char(started_on, 'YYYY-MM-DD') AS started_on FROM campaign WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!rows[0]) throw notFound();
  return rows[0];
}

/**
 * Starts a campaign over devices in service: each joins with its building and the day its
 * verification interval runs from now (a later verification marks it done). 400 naming
 * `deviceIds` when one is removed or unknown.
 */
export async function createCampaign(
  db: Db,
  caller: Caller,
  input: { name: string; deviceIds: number[] },
): Promise<CampaignDetail> {
  const id = await db.transaction(async (tx) => {
    const { rows: found } = await tx.query<{ id: number }>(
      'SELECT id FROM device WHERE id = ANY ($1::int[]) AND removed_at IS NULL',
      [input.deviceIds],
    );
    const inService = new Set(found.map((r) => r.id));
    const missing = input.deviceIds.find((d) => !inService.has(d));
    if (missing !== undefined) throw badRequest('campaignDeviceNotInService', { id: String(missing) }, 'deviceIds');
    const { rows } = await tx.query<{ id: number; started_on: string }>(
      `INSERT INTO campaign (name, created_by) VALUES ($1, $2)
       RETURNING id, to_char(started_on, 'YYYY-MM-DD') AS started_on`,
      [input.name.trim(), caller.id],
    );
    const campaign = rows[0]!;
    await tx.query(
      `INSERT INTO campaign_device (campaign_id, device_id, building_id, verified_from)
       SELECT $1, d.id, ${buildingIdOf('l')}, ${verifiedFromSql('d')}
         FROM device d JOIN location l ON l.id = d.location_id
        WHERE d.id = ANY ($2::int[])`,
      [campaign.id, input.deviceIds],
    );
    await recordAudit(tx, {
      actor: caller,
      kind: 'campaign.create',
      entity: 'campaign',
      entityId: campaign.id,
      before: null,
      after: {
        Name: input.name.trim(),
        StartedOn: campaign.started_on,
        DeviceIds: [...input.deviceIds].sort((a, b) => a - b),
      },
    });
    return campaign.id;
  });
  return getCampaign(db, caller, id);
}

/** Renames a campaign; audited. */
export async function updateCampaign(db: Db, caller: Caller, id: number, name: string): Promise<CampaignDetail> {
  await db.transaction(async (tx) => {
    const before = await lockCampaign(tx, id);
    await tx.query('UPDATE campaign SET name = $2 WHERE id = $1', [id, name.trim()]);
    await recordAudit(tx, {
      actor: caller,
      kind: 'campaign.update',
      entity: 'campaign',
      entityId: id,
      before: { Name: before.name },
      after: { Name: name.trim() },
    });
  });
  return getCampaign(db, caller, id);
}

/** Deletes a campaign with its plan, notices and visits; the devices stay. Audited. */
export async function deleteCampaign(db: Db, caller: Caller, id: number): Promise<{ Id: number }> {
  return db.transaction(async (tx) => {
    const before = await lockCampaign(tx, id);
    const { rows } = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM campaign_device WHERE campaign_id = $1',
      [id],
    );
    await tx.query('DELETE FROM campaign WHERE id = $1', [id]);
    await recordAudit(tx, {
      actor: caller,
      kind: 'campaign.delete',
      entity: 'campaign',
      entityId: id,
      before: { Name: before.name, StartedOn: before.started_on, Devices: rows[0]!.n },
      after: null,
    });
    return { Id: id };
  });
}

/**
 * Plans a building's visit day (with an optional time window), or clears it with null; audited.
 * 404 when the campaign has no device in that building; 400 naming `visit` when the window ends
 * before it starts.
 */
export async function planVisit(
  db: Db,
  caller: Caller,
  id: number,
  buildingId: number,
  visit: CampaignVisit | null,
): Promise<CampaignDetail> {
  if (visit?.From && visit.To && visit.To <= visit.From) throw badRequest('campaignVisitWindow', {}, 'visit');
  await db.transaction(async (tx) => {
    await lockCampaign(tx, id);
    const { rows: has } = await tx.query(
      'SELECT 1 FROM campaign_device WHERE campaign_id = $1 AND building_id = $2 LIMIT 1',
      [id, buildingId],
    );
    if (!has.length) throw notFound();
    const { rows: before } = await tx.query<CampaignVisit>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS "Day", to_char(time_from, 'HH24:MI') AS "From", to_char(time_to, 'HH24:MI') AS "To"
         FROM campaign_visit WHERE campaign_id = $1 AND building_id = $2`,
      [id, buildingId],
    );
    if (visit === null) {
      await tx.query('DELETE FROM campaign_visit WHERE campaign_id = $1 AND building_id = $2', [id, buildingId]);
    } else {
      await tx.query(
        `INSERT INTO campaign_visit (campaign_id, building_id, day, time_from, time_to) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (campaign_id, building_id)
         DO UPDATE SET day = excluded.day, time_from = excluded.time_from, time_to = excluded.time_to`,
        [id, buildingId, visit.Day, visit.From, visit.To],
      );
    }
    await recordAudit(tx, {
      actor: caller,
      kind: 'campaign.plan',
      entity: 'campaign',
      entityId: id,
      before: before[0] ? { BuildingId: buildingId, ...before[0] } : null,
      after: visit ? { BuildingId: buildingId, ...visit } : null,
    });
  });
  return getCampaign(db, caller, id);
}
