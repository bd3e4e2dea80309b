import * as contract from '@rodmenys/contract';
import { expect } from 'vitest';
import { cityIdOf } from '../../services/sql.js';
import { registerUser } from '../../services/users/register-user.js';
import { inject } from '../../test/app.js';
import { MOVE_DAY, type Role, type World } from './world.js';

/*
 * What the authorisation matrix's samples (docs/security.md) make for their calls: accounts to
 * delete, anomalies, keys, receivers, moves, occupancies, declarations, campaigns.
 */

/** The makers over one world. */
export function makers(w: World) {
  const { t, ids, tokens, passwords } = w;
  /** A group 3 account with rights in Alfa's first building, made for one destructive call. */
  const victim = async () => {
    const user = await registerUser(t.db, {
      firstName: 'Victim',
      lastName: 'Alfa',
      username: `victim${++w.serial}`,
      password: 'password1',
    });
    await t.db.query('INSERT INTO location_right (user_id, location_id) VALUES ($1, $2)', [user.Id, ids.buildingA1]);
    return user.Id;
  };
  /** An open anomaly on Alfa's first building and device, made for one acknowledge or resolve call. */
  const anomaly = async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO anomaly (rule, building_id, device_id, month, evidence)
       VALUES ('SPIKE', $1, $2, make_date(2000 + $3::int, 1, 1), '{}') RETURNING id`,
      [ids.buildingA1, ids.deviceA1, ++w.serial],
    );
    return rows[0]!.id;
  };
  /** An integration key on Alfa's first building, the operator's, made for one revocation. */
  const integrationKey = async () =>
    (
      await t.db.query<{ id: number }>(
        `INSERT INTO integration_key (name, key_hash, prefix, location_ids, expires_at, created_by)
         VALUES ($1, sha256(convert_to($1, 'UTF8')), 'rdm_live_matrix', ARRAY[$2::int], now() + interval '1 day', $3)
         RETURNING id`,
        [`matrix key ${++w.serial}`, ids.buildingA1, ids.g1_root],
      )
    ).rows[0]!.id;
  /** A webhook receiver, made for one switch-off. */
  const receiver = async () =>
    (
      await t.db.query<{ id: number }>(
        `INSERT INTO billing_receiver (name, kind, url, secret) VALUES ($1, 'webhook', 'http://127.0.0.1:9/', 's')
         RETURNING id`,
        [`receiver ${++w.serial}`],
      )
    ).rows[0]!.id;
  /** A move on Alfa's first flat (its devices get moving-day values), made once by the operator. */
  let moved: Promise<void> | undefined;
  const move = () => {
    // A move needs someone moving out: the flat's client has lived there since 2025.
    moved ??= t.db
      .query(
        `INSERT INTO occupancy (location_id, client_id, name, move_in)
         SELECT $1, id, 'Klientas-A1', DATE '2025-01-01' FROM client WHERE code = 'CLIENT-A1'`,
        [ids.flatA1],
      )
      .then(() =>
        inject(t.app, contract.recordMove, {
          params: { id: ids.flatA1! },
          body: { day: MOVE_DAY, clientCode: 'CLIENT-A1-NEXT', name: 'Klientas-A1-next' },
          token: tokens.group1!,
        }),
      )
      .then((r) => expect(r.status).toBe(201));
    return moved;
  };
  /** A manual moving-day value on Alfa's first device, made for one removal. */
  const manualMoveValue = async () => {
    await move();
    const r = await inject(t.app, contract.setMoveValue, {
      params: { deviceId: ids.deviceA1!, day: MOVE_DAY },
      body: { value: 11, reason: 'Read on site' },
      token: tokens.group1!,
    });
    expect(r.status).toBe(200);
    return { params: { deviceId: ids.deviceA1!, day: MOVE_DAY } };
  };
  /** A two-day occupancy of Beta's second flat long ago, made for one edit. */
  const occupancy = async () =>
    (
      await t.db.query<{ id: number; move_in: string; move_out: string }>(
        `INSERT INTO occupancy (location_id, client_id, name, move_in, move_out)
         SELECT $1, id, 'Klientas-B2', DATE '1990-01-01' + 2 * $2::int, DATE '1990-01-02' + 2 * $2::int
         FROM client WHERE code = 'CLIENT-B2' RETURNING id, move_in::text, move_out::text`,
        [ids.flatB2, ++w.serial],
      )
    ).rows[0]!;
  /** An occupancy of Alfa's second flat, made once if none, whose secrets the access samples revoke and reissue. */
  let alfaOccupancy: Promise<number> | undefined;
  const occupantAccess = async () => {
    alfaOccupancy ??= t.db
      .query<{ id: number }>(
        // The flat's occupancy if another sample made one, else a new one.
        `WITH made AS (INSERT INTO occupancy (location_id, client_id, name)
                        SELECT $1, id, 'Klientas-A2' FROM client
                         WHERE code = 'CLIENT-A2' AND NOT EXISTS (SELECT FROM occupancy WHERE location_id = $1)
                        RETURNING id)
         SELECT id FROM made UNION ALL (SELECT id FROM occupancy WHERE location_id = $1 ORDER BY id LIMIT 1)`,
        [ids.flatA2],
      )
      .then((r) => r.rows[0]!.id);
    return { params: { id: await alfaOccupancy } };
  };
  /**
   * Alfa's second flat's water meter read by declaration (docs/declared-readings.md), with the flat's
   * occupancy; made once. Returns the device id.
   */
  let declared: Promise<number> | undefined;
  const declaredDevice = () => {
    declared ??= occupantAccess().then(async () => {
      const { rows } = await t.db.query<{ id: number }>(
        `UPDATE device SET read_method = 'manual' WHERE device_code = 'DEV-A2-CW' RETURNING id`,
      );
      return rows[0]!.id;
    });
    return declared;
  };
  /** A declaration of that meter with a photo, made for one call. */
  const declaration = async () => {
    const device = await declaredDevice();
    const { rows } = await t.db.query<{ id: number }>(
      `WITH p AS (INSERT INTO declaration_photo (occupancy_id, mime, width, height, bytes)
                  SELECT o.id, 'image/png', 1, 1, '\\x89504e47'::bytea FROM occupancy o WHERE o.location_id = $2
                  ORDER BY o.id LIMIT 1 RETURNING id, occupancy_id)
       INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, channel, photo_id,
                                status)
       SELECT $1, p.occupancy_id, $2, 12.5, '2026-01-24 10:00', '2026-01-01', 'occupant', p.id, 'doubtful' FROM p
       RETURNING id`,
      [device, ids.flatA2],
    );
    return rows[0]!.id;
  };
  /** Who reaches Alfa's declarations: groups 1 and 2 of Alfa; group 3 is refused, Beta's group 2 finds nothing. */
  const declarationStatuses = (ok: number) => ({
    fresh: 403,
    group3: 403,
    group2Beta: 404,
    group2Alfa: ok,
    group1: ok,
  });
  /** Who reaches an occupancy of Alfa's access: groups 1 and 2 of Alfa; group 3 is refused, Beta's group 2 finds nothing. */
  const occupantAccessStatuses = (ok: number) => ({
    fresh: 403,
    group3: 403,
    group2Beta: 404,
    group2Alfa: ok,
    group1: ok,
  });
  /** An exchange campaign over Alfa's first device (docs/device-lifetime.md) by the operator, a new one per call. */
  const campaign = async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `WITH c AS (INSERT INTO campaign (name, created_by) VALUES ($1, $4) RETURNING id)
       INSERT INTO campaign_device (campaign_id, device_id, building_id) SELECT id, $2, $3 FROM c RETURNING campaign_id AS id`,
      [`Campaign ${++w.serial}`, ids.deviceA1, ids.buildingA1, ids.g1_root],
    );
    return rows[0]!.id;
  };
  const city = async () =>
    (
      await t.db.query<{ id: number }>(`SELECT ${cityIdOf('location')} AS id FROM location WHERE id = $1`, [
        ids.buildingA1,
      ])
    ).rows[0]!.id;
  /** A second token of the role (for sign-out), null for anonymous. */
  const secondToken = async (role: Role) => {
    const account = passwords[role];
    if (!account) return null;
    return (await inject(t.app, contract.authenticate, { body: account })).body.Token;
  };

  const period = { dateFrom: '2026-01-01', dateTill: '2026-01-31' };
  const csv = 'serial;time;value\n';
  return {
    victim,
    anomaly,
    integrationKey,
    receiver,
    move,
    manualMoveValue,
    occupancy,
    occupantAccess,
    declaredDevice,
    declaration,
    declarationStatuses,
    occupantAccessStatuses,
    campaign,
    city,
    secondToken,
    period,
    csv,
  };
}

export type Makers = ReturnType<typeof makers>;
