import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, type OccupancyStatement } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/db.js';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../../test/factories.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { occupancyStatements } from './occupancy-figures.js';
import { renderBuildingPdf, statementsPdf } from './pdf.js';
import { loadStatements } from './snapshots.js';

const dir = mkdtempSync(path.join(tmpdir(), 'occupancy-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The pages of a PDF as poppler's pdftotext extracts them. */
function pdfPages(bytes: Uint8Array): string[] {
  const file = path.join(dir, 'statement.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f');
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** A database that counts the queries sent through it. */
function counting(db: Queryable): Queryable & { count: number } {
  const counted = {
    count: 0,
    query: ((sql: string, params?: readonly unknown[]) => {
      counted.count++;
      return db.query(sql, params);
    }) as Queryable['query'],
  };
  return counted;
}

/**
 * A building's statements PDF as it was drawn before the occupants' parts were batched: the flats
 * with a move in the month looked up, then each one's per-occupant statements, flat by flat.
 */
async function perFlatPdf(db: Queryable, month: string, flatIds: number[], lang: 'lt' | 'en'): Promise<Buffer> {
  const statements = await loadStatements(db, month, { scope: null, flatIds });
  const { rows } = await db.query<{ id: number }>(
    `SELECT DISTINCT location_id AS id FROM occupancy WHERE location_id = ANY ($1::int[])
        AND move_in > $2::date AND move_in < ($2::date + interval '1 month')::date`,
    [flatIds, `${month}-01`],
  );
  const occupants = new Map<number, OccupancyStatement[]>();
  for (const r of rows) occupants.set(r.id, (await occupancyStatements(db, month, r.id, null)).Occupancies);
  return bytesOf(renderBuildingPdf(statements, lang, occupants));
}

// A move on 15 March 2026 (docs/occupancies.md): the flat's March split between the two occupants.
// Europe/Vilnius: UTC+2 until 29 March, then UTC+3.
describe(`GET /api/statements/flats/:flatId/occupancies (${dbKind()})`, () => {
  const t = useApp();
  let operator: SignedIn;
  let outsider: SignedIn;
  let meterFlat: number;
  let allocatorFlat: number;
  let heatMeter: number;
  let hotWater: number;
  let coldWaterId: number;
  let quietFlat: number;
  let building: number;
  const NOW = new Date('2026-11-26T12:00:00Z');

  const statements = async (flatId: number, month: string, token = operator.token) => {
    const res = await inject(t.app, contract.getOccupancyStatements, { params: { flatId }, query: { month }, token });
    return res;
  };
  const flatFigures = async (flatId: number, month: string) => {
    const res = await inject(t.app, contract.getFlatStatement, {
      params: { flatId },
      query: { month },
      token: operator.token,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.Row.Kinds;
  };
  /** Thousandths, so sums are compared exactly. */
  const milli = (v: number | null | undefined) => Math.round((v ?? Number.NaN) * 1000);
  const kind = (o: OccupancyStatement, k: contract.StatementKind) => o.Kinds.find((x) => x.Kind === k)!;

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Vilnius', street: 'Totorių g.', number: '4' });
    building = place.id;
    const other = await makeBuilding(t.db, { city: 'Vilnius', street: 'Totorių g.', number: '6' });
    meterFlat = (await makeFlat(t.db, place, { name: '1', order: 1 })).id;
    allocatorFlat = (await makeFlat(t.db, place, { name: '2', order: 2 })).id;
    for (const [flat, code] of [
      [meterFlat, 'OLD-1'],
      [allocatorFlat, 'OLD-2'],
    ] as const) {
      const { rows } = await t.db.query<{ id: number }>(
        "INSERT INTO client (code, name) VALUES ($1, 'Petras Senasis') RETURNING id",
        [code],
      );
      await t.db.query('UPDATE location SET client_id = $2 WHERE id = $1', [flat, rows[0]!.id]);
      await t.db.query("INSERT INTO occupancy (location_id, client_id, name) VALUES ($1, $2, 'Petras Senasis')", [
        flat,
        rows[0]!.id,
      ]);
    }
    // A flat without a move: one occupant all month.
    quietFlat = (await makeFlat(t.db, other, { name: '1', order: 1 })).id;
    {
      const { rows } = await t.db.query<{ id: number }>(
        "INSERT INTO client (code, name) VALUES ('STAY-1', 'Ona Likusioji') RETURNING id",
      );
      await t.db.query('UPDATE location SET client_id = $2 WHERE id = $1', [quietFlat, rows[0]!.id]);
      await t.db.query("INSERT INTO occupancy (location_id, client_id, name) VALUES ($1, $2, 'Ona Likusioji')", [
        quietFlat,
        rows[0]!.id,
      ]);
    }
    const feb = '2026-02-28T23:00:00+02:00';
    const mar = '2026-03-31T23:00:00+03:00';
    const quietWater = await makeDevice(t.db, quietFlat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'OS-Q' });
    await makeReadings(t.db, quietWater, [
      [feb, 50],
      [mar, 57],
    ]);
    // Measured at the move: a reading exactly at 15 March 00:00.
    const coldWater = await makeDevice(t.db, meterFlat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'OS-CW' });
    coldWaterId = coldWater;
    await makeReadings(t.db, coldWater, [
      [feb, 100],
      ['2026-03-15T00:00:00+02:00', 110.25],
      [mar, 125.5],
    ]);
    // Interpolated at the move, between the 10th and the 20th.
    hotWater = await makeDevice(t.db, meterFlat, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'OS-HW' });
    await makeReadings(t.db, hotWater, [
      [feb, 10],
      ['2026-03-10T00:00:00+02:00', 12],
      ['2026-03-20T00:00:00+02:00', 22],
      [mar, 30],
    ]);
    // Set by hand at the move.
    heatMeter = await makeDevice(t.db, meterFlat, { typeId: DEVICE_TYPE.heatMeter, code: 'OS-HM' });
    await makeReadings(t.db, heatMeter, [
      [feb, 1000],
      [mar, 1300],
    ]);
    // The allocator flat shares the building meter's energy less the heat-metered flat's: 800 - 300 = 500 kWh.
    const bhm = await makeDevice(t.db, place, { typeId: DEVICE_TYPE.buildingHeatMeter, code: 'OS-BHM' });
    await makeReadings(t.db, bhm, [
      [feb, 5000],
      [mar, 5800],
    ]);
    for (const [code, atMove, end] of [
      ['OS-A1', 5, 15],
      ['OS-A2', 5, 25],
    ] as const) {
      const a = await makeDevice(t.db, allocatorFlat, { typeId: DEVICE_TYPE.allocator, code, ratingFactor: 1 });
      await makeReadings(t.db, a, [
        [feb, 0],
        ['2026-03-15T00:00:00+02:00', atMove],
        [mar, end],
      ]);
    }
    await refreshMonthEnds(t.db, NOW);
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    outsider = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [other.id] });
    for (const flat of [meterFlat, allocatorFlat]) {
      const res = await inject(t.app, contract.recordMove, {
        params: { id: flat },
        body: { day: '2026-03-15', clientCode: `NEW-${flat}`, name: 'Aistė Naujoji' },
        token: operator.token,
      });
      expect(res.status, res.text).toBe(201);
    }
    const manual = await inject(t.app, contract.setMoveValue, {
      params: { deviceId: heatMeter, day: '2026-03-15' },
      body: { value: 1100, reason: 'Read at the handover' },
      token: operator.token,
    });
    expect(manual.status, manual.text).toBe(200);
  }, 180_000);

  it('gives one statement per occupant whose figures add up to the flat’s month for every kind', async () => {
    const res = await statements(meterFlat, '2026-03');
    expect(res.status, res.text).toBe(200);
    const [before, after] = res.body.Occupancies;
    expect([before?.Name, before?.From, before?.Till, before?.Days]).toEqual([
      'Petras Senasis',
      '2026-03-01',
      '2026-03-14',
      14,
    ]);
    expect([after?.ClientCode, after?.From, after?.Till, after?.Days]).toEqual([
      `NEW-${meterFlat}`,
      '2026-03-15',
      '2026-03-31',
      17,
    ]);
    const flat = await flatFigures(meterFlat, '2026-03');
    expect(flat.map((k) => k.Kind).sort()).toEqual(['coldWater', 'heating', 'hotWater']);
    for (const k of flat) {
      const a = kind(before!, k.Kind).Current.Value;
      const b = kind(after!, k.Kind).Current.Value;
      expect(milli(a) + milli(b), k.Kind).toBe(milli(k.Current.Value));
    }
    // Measured at the move (cold water), interpolated (hot water), by hand (heating).
    expect(kind(before!, 'coldWater').Current).toMatchObject({ Value: 10.25, Sources: ['measured'] });
    expect(kind(after!, 'coldWater').Current.Value).toBe(15.25);
    expect(kind(before!, 'hotWater').Current).toMatchObject({ Value: 7, Partial: true });
    expect(kind(before!, 'hotWater').Current.Sources).toContain('interpolated');
    expect(kind(after!, 'hotWater').Current.Value).toBe(13);
    expect(kind(before!, 'heating').Current).toMatchObject({ Value: 100, Partial: true });
    expect(kind(after!, 'heating').Current).toMatchObject({ Value: 200 });
    expect(kind(after!, 'heating').Current.Sources).toContain('manual');
  });

  it('splits the allocator flat’s kWh between the occupants by their units', async () => {
    const [before, after] = (await statements(allocatorFlat, '2026-03')).body.Occupancies;
    const flat = (await flatFigures(allocatorFlat, '2026-03')).find((k) => k.Kind === 'heating')!;
    expect(flat).toMatchObject({ Unit: 'kWh', Units: 40 });
    expect(flat.Current.Value).toBe(500);
    expect(kind(before!, 'heating')).toMatchObject({ Unit: 'kWh', Units: 10, Current: { Value: 125 } });
    expect(kind(after!, 'heating')).toMatchObject({ Units: 30, Current: { Value: 375 } });
  });

  it('the figures of a selection give a flat with a move one part per occupant (one row each), others none', async () => {
    const res = await inject(t.app, contract.getStatementFigures, {
      query: { month: '2026-03' },
      token: operator.token,
    });
    expect(res.status, res.text).toBe(200);
    const { Rows, Occupancies } = res.body;
    // The flats' rows stay one per flat, as before.
    expect(Rows.map((r) => r.FlatId).sort()).toEqual([meterFlat, allocatorFlat, quietFlat].sort());
    // Two parts for each flat with a move, in the rows' order, none for the flat without one.
    const order = Rows.map((r) => r.FlatId).filter((id) => id !== quietFlat);
    expect(Occupancies.map((o) => o.FlatId)).toEqual(order.flatMap((id) => [id, id]));
    // The same parts as the flat's own per-occupant statements, adding up to the flat's row.
    for (const id of order) {
      const own = (await statements(id, '2026-03')).body.Occupancies;
      const parts = Occupancies.filter((o) => o.FlatId === id);
      expect(parts).toEqual(own.map((o) => ({ FlatId: id, ...o })));
      const row = Rows.find((r) => r.FlatId === id)!;
      for (const k of row.Kinds)
        expect(
          parts.reduce((sum, o) => sum + milli(kind(o, k.Kind).Current.Value), 0),
          k.Kind,
        ).toBe(milli(k.Current.Value));
    }
    expect(Occupancies.map((o) => o.Name)).not.toContain('Ona Likusioji');
    // Someone who may see only the other building sees its flat, and nobody's name from this one.
    const theirs = await inject(t.app, contract.getStatementFigures, {
      query: { month: '2026-03' },
      token: outsider.token,
    });
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.Rows.map((r) => r.FlatId)).toEqual([quietFlat]);
    expect(theirs.body.Occupancies).toEqual([]);
    expect(theirs.text).not.toContain('Aistė');
  });

  it('compares only within the same occupancy, and says why not', async () => {
    const [before, after] = (await statements(meterFlat, '2026-03')).body.Occupancies;
    // The one who moved out lived there all of February: the comparison is theirs.
    expect(kind(before!, 'coldWater').PreviousMissing).toBeNull();
    // The new occupant's first month: neither February nor last March is theirs.
    expect(kind(after!, 'coldWater')).toMatchObject({
      Previous: null,
      PreviousMissing: 'otherOccupancy',
      LastYear: null,
      LastYearMissing: 'otherOccupancy',
    });
    // Their twelfth month (February 2027): last February was someone else's.
    const twelfth = (await statements(meterFlat, '2027-02')).body.Occupancies;
    expect(twelfth).toHaveLength(1);
    expect(kind(twelfth[0]!, 'coldWater')).toMatchObject({ LastYear: null, LastYearMissing: 'otherOccupancy' });
    expect(kind(twelfth[0]!, 'coldWater').PreviousMissing).toBeNull();
    // Nothing of the predecessor in the new occupant's statement.
    const text = JSON.stringify(after);
    expect(text).not.toContain('Petras');
    expect(text).not.toContain('OLD-1');
  });

  it('a late reading changes the moving-day value and the live figures, still adding up', async () => {
    await makeReadings(t.db, hotWater, [['2026-03-14T23:00:00+02:00', 16.5]]);
    await t.db.query("INSERT INTO dq_pending (device_id, month) VALUES ($1, '2026-03-01') ON CONFLICT DO NOTHING", [
      hotWater,
    ]);
    await refreshMonthEnds(t.db, NOW, { ensure: false });
    const [before, after] = (await statements(meterFlat, '2026-03')).body.Occupancies;
    expect(kind(before!, 'hotWater').Current).toMatchObject({ Value: 6.5, Sources: ['measured'] });
    expect(kind(after!, 'hotWater').Current.Value).toBe(13.5);
  });

  it('the PDF gives each occupant a page of their own: their name and days, nothing of the other', async () => {
    const res = await inject(t.app, contract.getStatementsPdf, {
      query: { month: '2026-03', locationParentId: String(meterFlat), lang: 'en' },
      token: operator.token,
    });
    expect(res.status).toBe(200);
    const pages = pdfPages(res.raw).filter((p) => p.trim());
    expect(pages).toHaveLength(2);
    const [first, second] = pages;
    expect(first).toContain('Occupant: Petras Senasis (account OLD-1)');
    expect(first).toContain('Days: 2026-03-01 – 2026-03-14 (14 days)');
    expect(second).toContain(`Occupant: Aistė Naujoji (account NEW-${meterFlat})`);
    expect(second).toContain('Days: 2026-03-15 – 2026-03-31 (17 days)');
    expect(second).toContain('not shown: the flat had another occupant then');
    expect(second).not.toContain('Petras');
    expect(second).not.toContain('OLD-1');
  });

  /** The building's PDF both ways, as pdftotext reads it, and the queries each took. */
  const bothWays = async (lang: 'lt' | 'en') => {
    const flatIds = [meterFlat, allocatorFlat];
    const batched = counting(t.db);
    const file = await statementsPdf(batched, { month: '2026-03', scope: null, parents: [building], lang });
    const text = pdfPages(await bytesOf(file!.stream)).join('\f');
    const perFlat = counting(t.db);
    const baseline = pdfPages(await perFlatPdf(perFlat, '2026-03', flatIds, lang)).join('\f');
    return { text, baseline, queries: batched.count, baselineQueries: perFlat.count };
  };

  it('the building’s PDF looks the occupants up for all its moved flats at once, with the same text as flat by flat', async () => {
    for (const lang of ['lt', 'en'] as const) {
      const { text, baseline } = await bothWays(lang);
      // Both flats split: two pages each.
      expect(text.split('\f').filter((p) => p.trim())).toHaveLength(4);
      expect(text).toBe(baseline);
    }
    // One flat with a move or two: the same number of queries (flat by flat it grew with each).
    const count = async (parent: number) => {
      const db = counting(t.db);
      const file = await statementsPdf(db, { month: '2026-03', scope: null, parents: [parent], lang: 'en' });
      await bytesOf(file!.stream);
      return db.count;
    };
    expect(await count(building)).toBe(await count(meterFlat));
  });

  it('the flat’s statements carry the account valid in their month, not today’s', async () => {
    const account = async (month: string) =>
      (
        await inject(t.app, contract.getFlatStatement, {
          params: { flatId: meterFlat },
          query: { month },
          token: operator.token,
        })
      ).body.Row.ClientCode;
    expect(await account('2026-02')).toBe('OLD-1');
    expect(await account('2026-03')).toBe(`NEW-${meterFlat}`);
  });

  it('is 404 for a caller who may not see the flat', async () => {
    const res = await statements(meterFlat, '2026-03', outsider.token);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Aistė');
  });

  it('publishing freezes each occupant’s figures; a late reading changes the live ones, listed per occupancy', async () => {
    const published = await inject(t.app, contract.publishStatements, {
      body: { month: '2026-03' },
      token: operator.token,
    });
    expect(published.status, published.text).toBe(200);
    const frozen = (await statements(meterFlat, '2026-03')).body.Occupancies;
    expect(frozen.map((o) => kind(o, 'coldWater').Current.Value)).toEqual([10.25, 15.25]);
    // A late reading raises March's month end of the cold water meter: 125.5 becomes 127.
    await makeReadings(t.db, coldWaterId, [['2026-03-31T23:30:00+03:00', 127]]);
    await t.db.query("INSERT INTO dq_pending (device_id, month) VALUES ($1, '2026-03-01') ON CONFLICT DO NOTHING", [
      coldWaterId,
    ]);
    await refreshMonthEnds(t.db, NOW, { ensure: false });
    // The published month still answers what was published, per occupant, in the selection's figures too.
    const after = (await statements(meterFlat, '2026-03')).body.Occupancies;
    expect(after).toEqual(frozen);
    const figures = await inject(t.app, contract.getStatementFigures, {
      query: { month: '2026-03', locationParentId: String(meterFlat) },
      token: operator.token,
    });
    expect(figures.body.Rows[0]?.Published).not.toBeNull();
    expect(figures.body.Occupancies).toEqual(frozen.map((o) => ({ FlatId: meterFlat, ...o })));
    // The difference lists the new occupant's changed figure, with the flat's; the predecessor's is unchanged.
    const diff = await inject(t.app, contract.getStatementDifference, {
      query: { month: '2026-03' },
      token: operator.token,
    });
    expect(diff.status, diff.text).toBe(200);
    const cold = diff.body.Changes.filter((c) => c.FlatId === meterFlat && c.Kind === 'coldWater');
    expect(cold).toEqual([
      expect.objectContaining({ Field: 'Current', Published: 25.5, Live: 27 }),
      expect.objectContaining({
        Field: 'Current',
        Published: 15.25,
        Live: 16.75,
        Occupancy: {
          OccupancyId: frozen[1]!.OccupancyId,
          ClientCode: `NEW-${meterFlat}`,
          From: '2026-03-15',
          Till: '2026-03-31',
        },
      }),
    ]);
    // Republishing freezes the new figures and answers the same per-occupancy change.
    const again = await inject(t.app, contract.publishStatements, {
      body: { month: '2026-03' },
      token: operator.token,
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.Changes.filter((c) => c.FlatId === meterFlat && c.Kind === 'coldWater')).toEqual(cold);
    const republished = (await statements(meterFlat, '2026-03')).body.Occupancies;
    expect(republished.map((o) => kind(o, 'coldWater').Current.Value)).toEqual([10.25, 16.75]);
  });

  it('the PDF of a published month draws the frozen parts, as flat by flat did', async () => {
    const { text, baseline } = await bothWays('en');
    expect(text).toContain('Occupant: Aistė Naujoji');
    expect(text).toBe(baseline);
  });
});
