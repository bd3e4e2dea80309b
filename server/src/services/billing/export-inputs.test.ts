import { BILLING_COLUMNS, DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db, Tx } from '../../db/db.js';
import { PUBLICATION_FOLLOWERS } from '../../publication.js';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeUser } from '../../test/factories.js';
import type { Caller } from '../auth/caller.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { recordMove } from '../occupancies/occupancies.js';
import { buildingIdOf } from '../sql.js';
import { publishStatements } from '../statements/publish.js';
import { deviceLinesDigests, loadDeviceLinesWithDigests } from './device-lines.js';
import { parseSnapshotRows } from './export.js';

const MONTH = '2026-03';
const NOW = new Date('2026-11-26T12:00:00Z');
const t = useDb();

/** A Db over one transaction's connection (publishing opens its own transaction: here it runs inside this one). */
const asDb = (db: Db, tx: Tx): Db => ({ ...db, ...tx, transaction: (fn) => fn(tx) });

// Publishing again compares the billing export's inputs, not its rows (docs/statements.md, "Publishing again"):
// each input changed alone, the figures of the statements the same, must still make a new version, as the rows
// compared before did. Europe/Vilnius: UTC+2 until 29 March.
describe(`publishing again: every input of the billing export counted (${dbKind()})`, () => {
  let caller: Caller;
  let moving: number;
  let quiet: number;
  let quietWater: number;

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Vilnius', street: 'Totorių g.', number: '15' });
    moving = (await makeFlat(t.db, place, { name: '1', order: 1 })).id;
    quiet = (await makeFlat(t.db, place, { name: '2', order: 2 })).id;
    for (const [flat, code, occupant] of [
      [moving, 'OLD-1', 'Petras Senasis'],
      [quiet, 'STAY-2', 'Ona Likusioji'],
    ] as const) {
      const { rows } = await t.db.query<{ id: number }>(
        "INSERT INTO client (code, name) VALUES ($1, 'UAB Klientas') RETURNING id",
        [code],
      );
      await t.db.query('UPDATE location SET client_id = $2 WHERE id = $1', [flat, rows[0]!.id]);
      await t.db.query('INSERT INTO occupancy (location_id, client_id, name) VALUES ($1, $2, $3)', [
        flat,
        rows[0]!.id,
        occupant,
      ]);
    }
    const cold = await makeDevice(t.db, moving, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'IN-CW' });
    await makeReadings(t.db, cold, [
      ['2026-02-28T23:00:00+02:00', 100],
      ['2026-03-15T00:00:00+02:00', 110.25],
      ['2026-03-31T23:00:00+03:00', 125.5],
    ]);
    quietWater = await makeDevice(t.db, quiet, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'IN-Q' });
    await makeReadings(t.db, quietWater, [
      ['2026-02-28T23:00:00+02:00', 50],
      ['2026-03-31T23:00:00+03:00', 57],
    ]);
    await refreshMonthEnds(t.db, NOW);
    const operator = await makeUser(t.db, { groupId: GROUP.operator });
    caller = { id: operator.id, username: operator.username, groupId: GROUP.operator, scope: null } as Caller;
    await recordMove(t.db, caller, moving, { day: '2026-03-15', clientCode: 'NEW-1', name: 'Aistė Naujoji' });
    const first = await publishStatements(t.db, caller, MONTH, null, false, PUBLICATION_FOLLOWERS);
    expect(first).toMatchObject({ Buildings: 1, Flats: 2 });
  }, 120_000);

  /** Publishing again after `change`, rolled back: its answer and the export's rows of the flat `flat` now. */
  const republishAfter = (change: (tx: Tx) => Promise<unknown>) =>
    t.db.transaction(
      async (tx) => {
        await change(tx);
        return publishStatements(asDb(t.db, tx), caller, MONTH, null, false, PUBLICATION_FOLLOWERS);
      },
      { rollback: true },
    );

  it("digests a building's device lines alike with the lines and alone, and anew when a line moves", async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `SELECT ${buildingIdOf('l')} AS id FROM location l WHERE l.id = $1`,
      [quiet],
    );
    const building = rows[0]!.id;
    const { lines, digests } = await loadDeviceLinesWithDigests(t.db, MONTH, [building]);
    expect(lines.get(building)?.map((l) => l.device_code)).toEqual(['IN-CW', 'IN-Q']);
    expect(digests.get(building)).toMatch(/^[0-9a-f]{64}$/);
    expect(await deviceLinesDigests(t.db, MONTH, [building])).toEqual(digests);
    const moved = await t.db.transaction(
      async (tx) => {
        await tx.query(
          `UPDATE month_end SET reading_ts = reading_ts - interval '1 minute'
            WHERE device_id = $1 AND month = '2026-03-01' AND source = 'measured'`,
          [quietWater],
        );
        return {
          alone: await deviceLinesDigests(tx, MONTH, [building]),
          withLines: (await loadDeviceLinesWithDigests(tx, MONTH, [building])).digests,
        };
      },
      { rollback: true },
    );
    expect(moved.alone.get(building)).not.toBe(digests.get(building));
    expect(moved.withLines).toEqual(moved.alone);
  });

  it('freezes the rows without their null members and reads them back whole', async () => {
    const { rows } = await t.db.query<{ rows: string; row_count: number }>(
      'SELECT rows, row_count FROM billing_snapshot',
    );
    expect(rows).toHaveLength(1);
    const text = rows[0]!.rows;
    expect(text).not.toContain(':null');
    const frozen = JSON.parse(text) as Record<string, unknown>[];
    const read = parseSnapshotRows(text);
    expect(read).toHaveLength(rows[0]!.row_count);
    for (const [i, r] of read.entries()) {
      // Every member of the contract's row, in its order: the frozen ones as kept, the rest null.
      expect(Object.keys(r)).toEqual(BILLING_COLUMNS);
      expect(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null))).toEqual(frozen[i]);
    }
    expect(read.find((r) => r.Line === 'device')).toMatchObject({
      DeviceCode: 'IN-CW',
      OccupancyId: null,
      Books: false,
    });
  });

  it('makes no version when nothing changed', async () => {
    expect(await republishAfter(async () => undefined)).toMatchObject({ Buildings: 0, Unchanged: 1 });
  });

  it.each([
    [
      "a device's month-end reading time (its line)",
      (tx: Tx) =>
        tx.query(
          `UPDATE month_end SET reading_ts = reading_ts - interval '1 minute'
            WHERE device_id = $1 AND month = '2026-03-01' AND source = 'measured'`,
          [quietWater],
        ),
    ],
    [
      'the name of the one occupant of a flat without a move (its account)',
      (tx: Tx) => tx.query("UPDATE occupancy SET name = name || ' jr.' WHERE location_id = $1", [quiet]),
    ],
    [
      "the name of the occupant who moved out (their part's rows, not the flat's account)",
      (tx: Tx) =>
        tx.query("UPDATE occupancy SET name = name || ' jr.' WHERE location_id = $1 AND move_out IS NOT NULL", [
          moving,
        ]),
    ],
    [
      "a flat's name (its statement's row)",
      (tx: Tx) => tx.query("UPDATE location SET name = name || 'a', flat = flat || 'a' WHERE id = $1", [quiet]),
    ],
  ])('makes a version for the export when %s changed alone', async (_what, change) => {
    const again = await republishAfter(change);
    // The statements' figures are the same: the new version is the export's (ChangedExport in its audit).
    expect(again).toMatchObject({ Buildings: 1, Republished: 1, Unchanged: 0, Changes: [] });
  });
});
