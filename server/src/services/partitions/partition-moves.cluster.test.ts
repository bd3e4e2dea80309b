import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgres } from '../../../../scripts/pg-cluster.mjs';
import { buildApp } from '../../app.js';
import type { Db } from '../../db/db.js';
import { migrate } from '../../db/migrate.js';
import { openPostgres } from '../../db/postgres.js';
import { inject, testConfig } from '../../test/app.js';
import { makeBuilding, makeDevice, makeFlat, makeSignedIn, type SignedIn } from '../../test/factories.js';
import { computeMonthForAll } from '../data-quality/refresh-month-ends.js';
import { ensurePartitions } from './partitions.js';

// docs/scaling.md, "Month partitions": months move out of the default partition on a real
// PostgreSQL server while GetDevicesData and the CSV import hammer the same months. No answer
// may have fewer readings than before the move, none may be a 5xx, and the month-end values
// computed meanwhile stay those of the whole months.

const METERS = 60;
/** Months of 2019 with readings waiting in the default partition (strays: no partition yet). */
const MONTHS = ['2019-01', '2019-02', '2019-03', '2019-04', '2019-05', '2019-06'];
const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
};
/** The readings an answer shows: a start and an end per meter. */
const readingsIn = (rows: contract.ReadingRow[]) =>
  rows.reduce((n, r) => n + (r.TimeFrom ? 1 : 0) + (r.TimeTill ? 1 : 0), 0);

describe('month partitions move while GetDevicesData and the CSV import run (postgres)', () => {
  let cluster: PostgresCluster;
  let db: Db;
  let app: FastifyInstance;
  let operator: SignedIn;
  let buildingA: number;
  const importCodes: string[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    db = openPostgres(cluster.url, 'Europe/Vilnius', 16);
    await migrate(db);
    app = await buildApp({ config: testConfig({ databaseUrl: cluster.url }), db });
    await app.ready();
    operator = await makeSignedIn(app, { groupId: GROUP.operator });
    const a = await makeBuilding(db);
    buildingA = a.id;
    const b = await makeBuilding(db);
    for (let i = 0; i < METERS; i++) {
      await makeDevice(db, await makeFlat(db, a, { order: i + 1 }), { typeId: DEVICE_TYPE.heatMeter, code: `A${i}` });
    }
    for (let i = 0; i < 10; i++) {
      const code = `B${i}`;
      await makeDevice(db, await makeFlat(db, b, { order: i + 1 }), { typeId: DEVICE_TYPE.heatMeter, code });
      importCodes.push(code);
    }
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await cluster?.stop();
  });

  /** Puts the months back into the default partition, as an import of history or a restore leaves them. */
  async function strays() {
    await db.transaction(async (tx) => {
      await tx.exec('LOCK TABLE reading, telegram IN ACCESS EXCLUSIVE MODE');
      const { rows } = await tx.query<{ name: string }>(
        `SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'reading'::regclass AND c.relname LIKE 'reading_p2019%'`,
      );
      for (const { name } of rows) {
        await tx.exec(`ALTER TABLE reading DETACH PARTITION ${name}`);
        await tx.exec(`INSERT INTO reading SELECT * FROM ${name}; DROP TABLE ${name}`);
      }
    });
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM reading_default WHERE ts < '2019-07-01'",
    );
    return rows[0]!.n;
  }

  it('answers every read whole and every import without error', { timeout: 900_000 }, async () => {
    // Hourly readings of every meter of building A through the months, all in the default partition.
    await db.query(
      `INSERT INTO reading (device_id, ts, value)
       SELECT d.id, t, extract(epoch FROM t - '2018-12-01'::timestamptz) / 3600 / 1000
         FROM device d CROSS JOIN generate_series('2018-12-31T22:00:00Z'::timestamptz, '2019-07-01T00:00:00Z', interval '1 hour') t
        WHERE d.device_code LIKE 'A%'`,
    );
    expect(await strays()).toBeGreaterThan(METERS * 24 * 28 * MONTHS.length);
    const read = (month: string) =>
      inject(app, contract.getDevicesData, {
        query: {
          dateFrom: `${month}-01`,
          dateTill: lastDay(month),
          deviceTypeId: DEVICE_TYPE.heatMeter,
          locationParentId: String(buildingA),
        },
        token: operator.token,
      });
    const expected = new Map<string, number>();
    for (const month of MONTHS) {
      const res = await read(month);
      expect(res.status).toBe(200);
      expected.set(month, readingsIn(res.body));
      expect(expected.get(month)).toBe(METERS * 2);
    }

    // Building A's month-end values of each month, computed before any move.
    const monthEnds = async (month: string) =>
      JSON.stringify(
        (
          await db.query(
            `SELECT m.device_id, m.value::text, m.source, iso(m.reading_ts) AS reading_ts FROM month_end m
               JOIN device d ON d.id = m.device_id
              WHERE m.month = $1::date AND d.device_code LIKE 'A%' ORDER BY m.device_id`,
            [`${month}-01`],
          )
        ).rows,
      );
    const expectedEnds = new Map<string, string>();
    for (const month of MONTHS) {
      await computeMonthForAll(db, `${month}-01`);
      expectedEnds.set(month, await monthEnds(month));
      expect(JSON.parse(expectedEnds.get(month)!)).toHaveLength(METERS);
    }

    let moving = false;
    let done = false;
    const tally = {
      reads: 0,
      readsDuringMoves: 0,
      fewer: 0,
      imports: 0,
      importsDuringMoves: 0,
      failed: 0,
      monthEnds: 0,
      monthEndsDuringMoves: 0,
      monthEndsChanged: 0,
      moves: 0,
    };
    const problems: string[] = [];
    const reader = async (k: number) => {
      for (let i = k; !done; i++) {
        const month = MONTHS[i % MONTHS.length]!;
        const during = moving;
        const res = await read(month);
        tally.reads++;
        if (during) tally.readsDuringMoves++;
        if (res.status >= 500) problems.push(`GetDevicesData ${month}: ${res.status} ${JSON.stringify(res.body)}`);
        else if (readingsIn(res.body) < expected.get(month)!) {
          tally.fewer++;
          problems.push(`GetDevicesData ${month}: ${readingsIn(res.body)} readings, not ${expected.get(month)}`);
        }
      }
    };
    const importer = async (k: number) => {
      for (let i = k; !done; i++) {
        const month = MONTHS[i % MONTHS.length]!;
        // A line per import meter in a month being moved, and one in a month of 2018 with no partition yet.
        const body = importCodes
          .flatMap((code, j) => [
            `${code};${month}-15T${String(j).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z;${i}`,
            `${code};2018-${String((i % 12) + 1).padStart(2, '0')}-10T00:00:00Z;${i}`,
          ])
          .join('\n');
        const during = moving;
        const res = await inject(app, contract.importCsv, {
          body,
          token: operator.token,
          headers: { 'content-type': 'text/csv' },
        });
        tally.imports++;
        if (during) tally.importsDuringMoves++;
        if (res.status !== 200) {
          tally.failed++;
          problems.push(`CSV import: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    };
    // The scheduled month ends computing the same months meanwhile: never a value from half a month.
    const monthEndWorker = async () => {
      for (let i = 0; !done; i++) {
        const month = MONTHS[i % MONTHS.length]!;
        const during = moving;
        await computeMonthForAll(db, `${month}-01`);
        tally.monthEnds++;
        if (during) tally.monthEndsDuringMoves++;
        if ((await monthEnds(month)) !== expectedEnds.get(month)) {
          tally.monthEndsChanged++;
          problems.push(`month ends of ${month} changed`);
        }
      }
    };
    const workers = [reader(0), reader(2), reader(4), importer(0), importer(3), monthEndWorker()];
    try {
      while (tally.readsDuringMoves < 100 || tally.importsDuringMoves < 20) {
        moving = true;
        tally.moves += await ensurePartitions(db, new Date('2019-01-15T00:00:00Z'), 0);
        moving = false;
        await strays();
      }
    } finally {
      moving = false;
      done = true;
      await Promise.all(workers);
    }
    console.log('partition moves lane:', JSON.stringify(tally));
    expect(problems.slice(0, 10)).toEqual([]);
    expect(tally.fewer).toBe(0);
    expect(tally.monthEndsChanged).toBe(0);
    expect(tally.monthEndsDuringMoves).toBeGreaterThan(0);
    expect(tally.readsDuringMoves).toBeGreaterThanOrEqual(100);
    expect(tally.importsDuringMoves).toBeGreaterThanOrEqual(20);
  });
});
