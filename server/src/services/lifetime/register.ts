import {
  LOCATION_LEVEL,
  REMOTE_DEADLINE,
  REMOTE_REQUIRED_SINCE,
  type ReadMethod,
  type RemoteBuilding,
  type RemoteRegister,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { buildingIdOf, buildingOrder, inScope } from '../sql.js';
import { accountNameSql } from '../users/account-scope.js';
import { readNowSql } from './device-dates.js';
import { assertLifetimeReader } from './due.js';

interface DeviceLine {
  building_id: number;
  address: string;
  device_id: number;
  device_type_id: number;
  device_code: string;
  flat: string | null;
  installed_at: string | null;
  read_now: ReadMethod;
  late: boolean;
}

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : null);

/**
 * The remote-reading register (docs/device-lifetime.md; EU 2023/1791 Art. 16): every device in
 * service of the caller's scope by building, type and how it is read now, the ones installed after
 * REMOTE_REQUIRED_SINCE that are not remote, each building's exception note, and the summary.
 */
export async function remoteRegister(db: Queryable, caller: Caller, buildingId?: number): Promise<RemoteRegister> {
  assertLifetimeReader(caller);
  const { rows } = await db.query<DeviceLine>(
    `SELECT b.id AS building_id, address_label(b) AS address, d.id AS device_id, d.device_type_id, d.device_code,
            l.flat, iso(d.installed_at) AS installed_at, ${readNowSql('d', 'ds')} AS read_now,
            coalesce(d.installed_at::date > $3::date, false) AS late
       FROM device d
       JOIN location l ON l.id = d.location_id
       JOIN location b ON b.id = ${buildingIdOf('l')}
       LEFT JOIN device_status ds ON ds.device_id = d.id
      WHERE d.removed_at IS NULL AND ${inScope('l', '$1')} AND ($2::int IS NULL OR b.id = $2)
      ORDER BY ${buildingOrder('b')}, b.id, l.flat_order NULLS FIRST, l.flat NULLS FIRST, d.device_type_id, d.device_code`,
    [caller.scope, buildingId ?? null, REMOTE_REQUIRED_SINCE],
  );
  // Who noted it as the caller may see it (docs/security.md, "Names of accounts").
  const { rows: notes } = await db.query<{
    building_id: number;
    note: string;
    noted_at: string;
    noted_by: string | null;
  }>(
    `SELECT e.building_id, e.note, iso(e.noted_at) AS noted_at,
            ${accountNameSql(caller, 'u', `nullif(concat_ws(' ', u.first_name, u.last_name), '')`)} AS noted_by
       FROM remote_exception e LEFT JOIN app_user u ON u.id = e.noted_by
      WHERE e.building_id = ANY ($1::int[])`,
    [[...new Set(rows.map((r) => r.building_id))]],
  );
  const noteOf = new Map(notes.map((n) => [n.building_id, n]));
  const buildings: RemoteBuilding[] = [];
  for (const r of rows) {
    let b = buildings.at(-1);
    if (b?.BuildingId !== r.building_id) {
      const n = noteOf.get(r.building_id);
      b = {
        BuildingId: r.building_id,
        Address: r.address,
        Devices: 0,
        Remote: 0,
        RemotePercent: null,
        ByType: [],
        LateNotRemote: [],
        Exception: n ? { Note: n.note, NotedAt: n.noted_at, NotedBy: n.noted_by } : null,
      };
      buildings.push(b);
    }
    b.Devices++;
    let t = b.ByType.find((x) => x.DeviceTypeId === r.device_type_id);
    if (!t) {
      t = { DeviceTypeId: r.device_type_id, Remote: 0, WalkBy: 0, Manual: 0 };
      b.ByType.push(t);
    }
    if (r.read_now === 'remote') {
      b.Remote++;
      t.Remote++;
    } else {
      if (r.read_now === 'walkby') t.WalkBy++;
      else t.Manual++;
      if (r.late) {
        b.LateNotRemote.push({
          DeviceId: r.device_id,
          DeviceTypeId: r.device_type_id,
          DeviceCode: r.device_code,
          Flat: r.flat,
          InstalledAt: r.installed_at,
          ReadMethod: r.read_now,
        });
      }
    }
  }
  for (const b of buildings) {
    b.RemotePercent = percent(b.Remote, b.Devices);
    b.ByType.sort((x, y) => x.DeviceTypeId - y.DeviceTypeId);
  }
  const { rows: day } = await db.query<{ today: string; left: number }>(
    `SELECT to_char(current_date, 'YYYY-MM-DD') AS today, greatest($1::date - current_date, 0) AS left`,
    [REMOTE_DEADLINE],
  );
  const devices = buildings.reduce((s, b) => s + b.Devices, 0);
  const remote = buildings.reduce((s, b) => s + b.Remote, 0);
  return {
    Today: day[0]!.today,
    Deadline: REMOTE_DEADLINE,
    DaysLeft: day[0]!.left,
    Summary: {
      Buildings: buildings.length,
      Devices: devices,
      Remote: remote,
      RemotePercent: percent(remote, devices),
      LateNotRemote: buildings.reduce((s, b) => s + b.LateNotRemote.length, 0),
      BuildingsDone: buildings.filter((b) => b.Devices > 0 && b.Remote === b.Devices).length,
      BuildingsWithException: buildings.filter((b) => b.Exception).length,
    },
    Buildings: buildings,
  };
}

/** Writes (or with null removes) a building's exception note; audited (group 1: the route says so). */
export async function setRemoteException(
  db: Db,
  caller: Caller,
  buildingId: number,
  note: string | null,
): Promise<{ BuildingId: number; Note: string | null; NotedAt: string | null }> {
  return db.transaction(async (tx) => {
    const { rows: loc } = await tx.query<{ level: number }>('SELECT level FROM location WHERE id = $1', [buildingId]);
    if (loc[0]?.level !== LOCATION_LEVEL.building) throw badRequest('lifetimeNotBuilding', {}, 'buildingId');
    const { rows: before } = await tx.query<{ note: string; noted_at: string }>(
      'SELECT note, iso(noted_at) AS noted_at FROM remote_exception WHERE building_id = $1 FOR UPDATE',
      [buildingId],
    );
    const text = note?.trim() || null;
    let after: { note: string; noted_at: string } | null = null;
    if (text === null) {
      await tx.query('DELETE FROM remote_exception WHERE building_id = $1', [buildingId]);
    } else {
      const { rows } = await tx.query<{ note: string; noted_at: string }>(
        `INSERT INTO remote_exception (building_id, note, noted_at, noted_by) VALUES ($1, $2, now(), $3)
         ON CONFLICT (building_id) DO UPDATE SET note = excluded.note, noted_at = now(), noted_by = excluded.noted_by
         RETURNING note, iso(noted_at) AS noted_at`,
        [buildingId, text, caller.id],
      );
      after = rows[0]!;
    }
    await recordAudit(tx, {
      actor: caller,
      kind: 'remoteException.set',
      entity: 'location',
      entityId: buildingId,
      before: before[0] ? { Note: before[0].note, NotedAt: before[0].noted_at } : null,
      after: after ? { Note: after.note, NotedAt: after.noted_at } : null,
    });
    return { BuildingId: buildingId, Note: after?.note ?? null, NotedAt: after?.noted_at ?? null };
  });
}
