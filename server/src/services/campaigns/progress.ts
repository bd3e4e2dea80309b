import type {
  CampaignBuilding,
  CampaignCounts,
  CampaignDetail,
  CampaignDevice,
  CampaignSummary,
  NoAccessVisit,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../auth/caller.js';
import { assertLifetimeReader } from '../lifetime/due.js';
import { buildingOrder, inScope } from '../sql.js';
import { accountNameSql } from '../users/account-scope.js';

/*
 * A campaign's progress (docs/device-lifetime.md, "Exchange campaigns"), read from the devices
 * themselves: done when replaced through the replacement flow on or after the campaign's start day,
 * or verified on a later day than when it joined; else a visit without access when one is
 * recorded; else open. Group 2 sees the devices of its scope only.
 */

interface DeviceLine {
  campaign_id: number;
  building_id: number;
  address: string;
  device_id: number;
  flat: string | null;
  flat_order: number | null;
  device_type_id: number;
  device_code: string;
  done_how: 'replaced' | 'reverified' | null;
  done_on: string | null;
  new_code: string | null;
}

/**
 * The SQL of the campaigns' devices in the caller's scope (`$1`), `$2` one campaign or null, in
 * address order; each with how (and when) it was done.
 */
const DEVICES_SQL = `
  SELECT cd.campaign_id, cd.building_id, address_label(b) AS address, d.id AS device_id, l.flat, l.flat_order,
         d.device_type_id, d.device_code, x.done_how,
         CASE x.done_how WHEN 'replaced' THEN to_char(d.removed_at, 'YYYY-MM-DD')
                         WHEN 'reverified' THEN to_char(d.verified_on, 'YYYY-MM-DD') END AS done_on,
         CASE WHEN x.done_how = 'replaced' THEN nd.device_code END AS new_code
    FROM campaign_device cd
    JOIN campaign c ON c.id = cd.campaign_id
    JOIN device d ON d.id = cd.device_id
    JOIN location l ON l.id = d.location_id
    JOIN location b ON b.id = cd.building_id
    LEFT JOIN device nd ON nd.id = d.replaced_by
    CROSS JOIN LATERAL (SELECT CASE
        WHEN d.replaced_by IS NOT NULL AND d.removed_at >= c.started_on THEN 'replaced'
        WHEN d.verified_on IS NOT NULL AND d.verified_on > coalesce(cd.verified_from, '-infinity'::date) THEN 'reverified'
      END AS done_how) x
   WHERE ${inScope('l', '$1')} AND ($2::int IS NULL OR cd.campaign_id = $2)
   ORDER BY cd.campaign_id, ${buildingOrder('b')}, b.id, l.flat_order NULLS FIRST, l.flat NULLS FIRST,
            d.device_type_id, d.device_code`;

const emptyCounts = (): CampaignCounts => ({ Planned: 0, Done: 0, NoAccess: 0, Open: 0 });

function count(counts: CampaignCounts, state: CampaignDevice['State']): void {
  counts.Planned++;
  if (state === 'done') counts.Done++;
  else if (state === 'noAccess') counts.NoAccess++;
  else counts.Open++;
}

interface CampaignRow {
  id: number;
  name: string;
  started_on: string;
  created_by: string | null;
}

const FULL_NAME = `nullif(concat_ws(' ', u.first_name, u.last_name), '')`;
/** The campaigns, with who created them as the caller may see it (docs/security.md, "Names of accounts"). */
const campaignSql = (caller: Caller) => `
  SELECT c.id, c.name, to_char(c.started_on, 'YYYY-MM-DD') AS started_on,
         ${accountNameSql(caller, 'u', FULL_NAME)} AS created_by
    FROM campaign c LEFT JOIN app_user u ON u.id = c.created_by`;

async function noAccessOf(db: Queryable, caller: Caller, campaignIds: number[]): Promise<Map<string, NoAccessVisit[]>> {
  const { rows } = await db.query<NoAccessVisit & { campaign_id: number; device_id: number }>(
    `SELECT n.campaign_id, n.device_id, n.id AS "Id", to_char(n.day, 'YYYY-MM-DD') AS "Day", n.reason AS "Reason",
            iso(n.recorded_at) AS "RecordedAt", ${accountNameSql(caller, 'u', FULL_NAME)} AS "RecordedBy"
       FROM campaign_no_access n LEFT JOIN app_user u ON u.id = n.recorded_by
      WHERE n.campaign_id = ANY ($1::int[])
      ORDER BY n.day, n.id`,
    [campaignIds],
  );
  const out = new Map<string, NoAccessVisit[]>();
  for (const { campaign_id, device_id, ...visit } of rows) {
    const key = `${campaign_id}:${device_id}`;
    out.set(key, [...(out.get(key) ?? []), visit]);
  }
  return out;
}

/** The campaign's devices in the caller's scope with their states (one campaign, or every one). */
async function devicesOf(db: Queryable, caller: Caller, campaignId: number | null) {
  const { rows } = await db.query<DeviceLine>(DEVICES_SQL, [caller.scope, campaignId]);
  const visits = await noAccessOf(db, caller, [...new Set(rows.map((r) => r.campaign_id))]);
  return rows.map((r) => {
    const noAccess = visits.get(`${r.campaign_id}:${r.device_id}`) ?? [];
    const state: CampaignDevice['State'] = r.done_how ? 'done' : noAccess.length ? 'noAccess' : 'open';
    return { line: r, state, noAccess };
  });
}

/** Every campaign with a device in the caller's scope, newest first, counted over that scope. */
export async function listCampaigns(db: Queryable, caller: Caller): Promise<CampaignSummary[]> {
  assertLifetimeReader(caller);
  const devices = await devicesOf(db, caller, null);
  const { rows } = await db.query<CampaignRow>(`${campaignSql(caller)} ORDER BY c.started_on DESC, c.id DESC`);
  const summaries: CampaignSummary[] = [];
  for (const c of rows) {
    const mine = devices.filter((d) => d.line.campaign_id === c.id);
    if (!mine.length) continue;
    const counts = emptyCounts();
    for (const d of mine) count(counts, d.state);
    summaries.push({
      Id: c.id,
      Name: c.name,
      StartedOn: c.started_on,
      CreatedBy: c.created_by,
      BuildingCount: new Set(mine.map((d) => d.line.building_id)).size,
      Counts: counts,
    });
  }
  return summaries;
}

/**
 * One campaign as the caller may see it: its buildings in address order with the visit day, the
 * counts and the notices of that day, and each device with its state. 404 when it does not exist or
 * has no device in the caller's scope.
 */
export async function getCampaign(db: Queryable, caller: Caller, id: number): Promise<CampaignDetail> {
  assertLifetimeReader(caller);
  const { rows } = await db.query<CampaignRow>(`${campaignSql(caller)} WHERE c.id = $1`, [id]);
  const devices = rows[0] ? await devicesOf(db, caller, id) : [];
  if (!rows[0] || !devices.length) throw notFound();
  const c = rows[0];
  const { rows: visits } = await db.query<{
    building_id: number;
    day: string;
    time_from: string | null;
    time_to: string | null;
    mailed: number;
    printed: number;
  }>(
    `SELECT v.building_id, to_char(v.day, 'YYYY-MM-DD') AS day, to_char(v.time_from, 'HH24:MI') AS time_from,
            to_char(v.time_to, 'HH24:MI') AS time_to,
            (SELECT count(*)::int FROM campaign_notice n WHERE n.campaign_id = v.campaign_id
                AND n.building_id = v.building_id AND n.day = v.day AND n.status = 'sent') AS mailed,
            (SELECT count(*)::int FROM campaign_notice n WHERE n.campaign_id = v.campaign_id
                AND n.building_id = v.building_id AND n.day = v.day AND n.status = 'print') AS printed
       FROM campaign_visit v WHERE v.campaign_id = $1`,
    [id],
  );
  const visitOf = new Map(visits.map((v) => [v.building_id, v]));
  const counts = emptyCounts();
  const buildings: CampaignBuilding[] = [];
  for (const { line, state, noAccess } of devices) {
    let b = buildings.at(-1);
    if (b?.BuildingId !== line.building_id) {
      const v = visitOf.get(line.building_id);
      b = {
        BuildingId: line.building_id,
        Address: line.address,
        Visit: v ? { Day: v.day, From: v.time_from, To: v.time_to } : null,
        Counts: emptyCounts(),
        Mailed: v?.mailed ?? 0,
        Printed: v?.printed ?? 0,
        Devices: [],
      };
      buildings.push(b);
    }
    count(b.Counts, state);
    count(counts, state);
    b.Devices.push({
      DeviceId: line.device_id,
      Flat: line.flat,
      FlatOrder: line.flat_order,
      DeviceTypeId: line.device_type_id,
      DeviceCode: line.device_code,
      State: state,
      DoneHow: line.done_how,
      DoneOn: line.done_on,
      NewDeviceCode: line.new_code,
      NoAccess: noAccess,
    });
  }
  return {
    Id: c.id,
    Name: c.name,
    StartedOn: c.started_on,
    CreatedBy: c.created_by,
    BuildingCount: buildings.length,
    Counts: counts,
    Buildings: buildings,
  };
}
