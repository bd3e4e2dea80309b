/**
 * `npm run bench:capacity -w bench`: readings partitioned by month at scale
 * (docs/scaling.md), side by side in one run on one throwaway PostgreSQL server:
 *
 * - `part`: the schema as migrated (reading partitioned by month) with
 *   BENCH_CAPACITY_READINGS (default 200 M) hourly readings of the same devices,
 *   loaded month by month in parallel streams (each month's rows generated in
 *   SQL by generate_series into a table of its own, keyed, then attached);
 * - `flat`: the same master data with an unpartitioned `reading` (the schema
 *   before migration 080) holding the last BENCH_FLAT_READINGS (default 20 M)
 *   of those readings, identical row for row.
 *
 * Prints: GetDevicesData for 500 / 5,000 allocators (median, p95, answers
 * compared), the plan's partitions, ingest telegrams/s, month-end values of
 * one month for all devices, bytes per reading per partition, the time to
 * detach and to drop a month, and migration 080's time on the flat database.
 */
import type { Db } from '@rodmenys/server/db/db.js';
import { migrate } from '@rodmenys/server/db/migrate.js';
import { openPostgres } from '@rodmenys/server/db/postgres.js';
import { computeMonthForAll } from '@rodmenys/server/services/data-quality/refresh-month-ends.js';
import { DevicesDataCaches, getDevicesDataJson } from '@rodmenys/server/services/devices/devices-data/index.js';
import { ingestTelegrams } from '@rodmenys/server/services/ingest/ingest-telegrams.js';
import { createDataset } from '../lib/dataset.js';
import { machineInfo } from '../lib/machine.js';
import { startPostgres } from '../lib/postgres.js';
import { fmtMs, summarise, type Timing, timed } from '../lib/stats.js';
import { formatTable } from '../lib/table.js';

import {
  ALLOCATOR,
  captureReadingQueries,
  DEVICES,
  diskFree,
  FLAT_READINGS,
  FLAT_SCHEMA,
  gb,
  HOUR,
  INGEST_BATCH,
  INGEST_ROUNDS,
  lastMonth,
  load1,
  loadPartitioned,
  log,
  nextMonth,
  PART_READINGS,
  POSTGRES_SETTINGS,
  RUNS,
  readingsSelect,
  type SizeRow,
  STREAMS,
  selectBuildings,
  sizes,
  TIME_ZONE,
  telegramBatch,
} from './setup.js';

async function main() {
  const now = new Date();
  const end = new Date(Math.floor(now.getTime() / HOUR) * HOUR - HOUR);
  const dataset = createDataset({
    devices: DEVICES,
    readings: 1,
    end: now,
    coverFrom: new Date(now.getTime() - 86_400_000),
  });
  const n = dataset.deviceCount;
  const partHours = Math.ceil(PART_READINGS / n);
  const flatHours = Math.ceil(FLAT_READINGS / n);
  const partStart = new Date(end.getTime() - (partHours - 1) * HOUR);
  const flatStart = new Date(end.getTime() - (flatHours - 1) * HOUR);
  const month = lastMonth(now);
  log(
    `${n} devices; part: ${(partHours * n).toLocaleString('en-US')} readings from ${partStart.toISOString()}; flat: ${(flatHours * n).toLocaleString('en-US')} from ${flatStart.toISOString()}; month ${month.dateFrom}`,
  );
  log(`disk before:\n${diskFree()}`);
  const cluster = await startPostgres({ durable: true, settings: POSTGRES_SETTINGS });
  const out: string[] = [];
  let version = '';
  try {
    const admin = openPostgres(cluster.url, TIME_ZONE);
    version = (await admin.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(' on ')[0]!;
    await admin.exec('CREATE DATABASE part');
    await admin.exec('CREATE DATABASE flat');
    await admin.close();
    const url = (name: string) => cluster.url.replace(/\/postgres$/, `/${name}`);
    const part = openPostgres(url('part'), TIME_ZONE);
    const flat = openPostgres(url('flat'), TIME_ZONE);
    try {
      for (const db of [part, flat]) {
        await migrate(db);
        for (const { sql, rows } of dataset.masterData()) await db.copyIn(sql, rows);
      }
      await flat.exec(FLAT_SCHEMA);

      // Loads: flat first (small), then part.
      const flatLoad = await timed(() =>
        flat.transaction(async (tx) => {
          await tx.exec('TRUNCATE reading');
          await tx.exec(`INSERT INTO reading ${readingsSelect(flatStart, end, partStart)}`);
          await tx.exec('ALTER TABLE reading ADD CONSTRAINT reading_pkey PRIMARY KEY (device_id, ts)');
        }),
      );
      await flat.exec('ANALYZE');
      await flat.query('SELECT keep_last_seen(array(SELECT id FROM device))');
      log(`flat loaded in ${fmtMs(flatLoad.ms)} ms`);
      const partLoad = await timed(() => loadPartitioned(part, partStart, end, partStart));
      await part.exec('ANALYZE');
      await part.query('SELECT keep_last_seen(array(SELECT id FROM device))');
      log(`part loaded in ${fmtMs(partLoad.ms)} ms`);
      const count = async (db: Db) =>
        (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM reading')).rows[0]!.n;
      const partCount = Number(await count(part));
      const flatCount = Number(await count(flat));
      log(`disk after load:\n${diskFree()}`);

      out.push(
        `Loads: part ${partCount.toLocaleString('en-US')} readings in ${fmtMs(partLoad.ms)} ms (${Math.round(partCount / (partLoad.ms / 1000)).toLocaleString('en-US')} rows/s, ${STREAMS} streams, key built per month); flat ${flatCount.toLocaleString('en-US')} in ${fmtMs(flatLoad.ms)} ms`,
      );

      // GetDevicesData: the two databases interleaved round by round.
      const gdd: string[][] = [];
      for (const target of [500, 5_000]) {
        const selection = selectBuildings(dataset, target);
        const input = {
          deviceTypeId: ALLOCATOR,
          range: { from: month.dateFrom, till: month.dateTill },
          scope: null,
          parents: selection.parents,
          timeZone: TIME_ZONE,
        };
        // Each database its own caches, as each app has.
        const caches = new Map<Db, DevicesDataCaches>([
          [part, new DevicesDataCaches()],
          [flat, new DevicesDataCaches()],
        ]);
        const call = (db: Db) => getDevicesDataJson(db, input, caches.get(db)!);
        for (let i = 0; i < 3; i++) {
          await call(part);
          await call(flat);
        }
        const times: Record<'part' | 'flat', number[]> = { part: [], flat: [] };
        for (let i = 0; i < RUNS; i++) {
          for (const [name, db] of (i % 2
            ? [
                ['flat', flat],
                ['part', part],
              ]
            : [
                ['part', part],
                ['flat', flat],
              ]) as Array<['part' | 'flat', Db]>) {
            times[name].push((await timed(() => call(db))).ms);
          }
        }
        const a = (await call(part)).json.toString();
        const b = (await call(flat)).json.toString();
        const tp: Timing = summarise(times.part);
        const tf: Timing = summarise(times.flat);
        gdd.push([
          `${selection.devices.toLocaleString('en-US')} allocators`,
          fmtMs(tp.medianMs),
          fmtMs(tp.p95Ms),
          fmtMs(tf.medianMs),
          fmtMs(tf.p95Ms),
          `${(tp.medianMs / tf.medianMs).toFixed(2)}×`,
          a === b ? `yes (${JSON.parse(a).length} rows)` : 'NO',
          load1(),
        ]);
        log(`GetDevicesData ${selection.devices}: part ${fmtMs(tp.medianMs)} ms, flat ${fmtMs(tf.medianMs)} ms`);
        if (target === 5_000) {
          // The plan of every statement on reading: which partitions it touched.
          const seen = await captureReadingQueries(part, (db) =>
            getDevicesDataJson(db, { ...input, parents: [...selection.parents] }, new DevicesDataCaches()),
          );
          const summary: string[] = [];
          for (const q of seen) {
            const { rows } = await part.query<{ 'QUERY PLAN': string }>(
              `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${q.sql}`,
              q.params,
            );
            const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
            const executed = new Set<string>();
            for (const line of plan.split('\n')) {
              const m = /on (reading_p\d{6}|reading_default)/.exec(line);
              if (m && !line.includes('never executed')) executed.add(m[1]!);
            }
            const listed = new Set([...plan.matchAll(/on (reading_p\d{6}|reading_default)/g)].map((m) => m[1]!));
            const removed = [...plan.matchAll(/Subplans Removed: (\d+)/g)].map((m) => m[1]).join('+') || '0';
            summary.push(
              `${listed.size} partitions in the plan, ${executed.size} executed (${[...executed].sort().join(', ')}), subplans removed: ${removed}`,
            );
            if (process.env.BENCH_SHOW_PLAN) console.error(plan);
          }
          out.push(`Plan of GetDevicesData (5,000) on part: ${summary.join('; ') || 'no statement on reading seen'}`);
        }
      }

      // Ingest: batches alternating between the databases, same devices and times.
      const ingestMs: Record<'part' | 'flat', number> = { part: 0, flat: 0 };
      let ingested = 0;
      for (let round = 1; round <= INGEST_ROUNDS; round++) {
        const at = new Date(end.getTime() + round * 60_000 * 7);
        const order = (
          round % 2
            ? [
                ['part', part],
                ['flat', flat],
              ]
            : [
                ['flat', flat],
                ['part', part],
              ]
        ) as Array<['part' | 'flat', Db]>;
        for (const [name, db] of order) {
          const batch = await telegramBatch(db, INGEST_BATCH, at);
          const t = await timed(() => ingestTelegrams(db, batch));
          if (round > 1) ingestMs[name] += t.ms;
          if (name === 'part' && round > 1) ingested += batch.length;
        }
      }
      const rate = (ms: number) => Math.round(ingested / (ms / 1000));

      // Month-end values of the last month, all devices, from scratch.
      const monthEnd: Record<'part' | 'flat', { ms: number; stored: number }> = {
        part: { ms: 0, stored: 0 },
        flat: { ms: 0, stored: 0 },
      };
      for (const [name, db] of [
        ['flat', flat],
        ['part', part],
      ] as Array<['part' | 'flat', Db]>) {
        const t = await timed(() => computeMonthForAll(db, month.dateFrom));
        monthEnd[name] = { ms: t.ms, stored: t.result.stored };
      }

      out.push(
        '',
        formatTable(
          [
            'GetDevicesData (last month)',
            'part median ms',
            'part p95',
            'flat median ms',
            'flat p95',
            'part / flat',
            'same answer',
            'Load',
          ],
          gdd,
        ),
      );
      out.push(
        '',
        formatTable(
          [
            'Work',
            `part (${(partCount / 1e6).toFixed(0)} M)`,
            `flat (${(flatCount / 1e6).toFixed(0)} M)`,
            'part / flat',
            'Load',
          ],
          [
            [
              `ingest, telegrams/s (${INGEST_ROUNDS - 1} batches of ${INGEST_BATCH.toLocaleString('en-US')})`,
              rate(ingestMs.part).toLocaleString('en-US'),
              rate(ingestMs.flat).toLocaleString('en-US'),
              `${((100 * ingestMs.flat) / ingestMs.part).toFixed(0)} %`,
              load1(),
            ],
            [
              `month-end values of ${month.dateFrom.slice(0, 7)}, all devices, ms`,
              fmtMs(monthEnd.part.ms),
              fmtMs(monthEnd.flat.ms),
              `${(monthEnd.part.ms / monthEnd.flat.ms).toFixed(2)}×`,
              `${monthEnd.part.stored} / ${monthEnd.flat.stored} values`,
            ],
          ],
        ),
      );

      // Bytes per reading.
      const ps = await sizes(part, true);
      const fs = await sizes(flat, false);
      const sizeRow = (r: SizeRow) => [
        r.name,
        Math.round(r.rows).toLocaleString('en-US'),
        gb(r.heap),
        gb(r.index),
        r.rows > 0 ? (r.heap / r.rows).toFixed(1) : '-',
        r.rows > 0 ? (r.index / r.rows).toFixed(1) : '-',
        r.rows > 0 ? ((r.heap + r.index) / r.rows).toFixed(1) : '-',
      ];
      const total = (rows: SizeRow[], name: string): SizeRow =>
        rows.reduce((a, r) => ({ name, rows: a.rows + r.rows, heap: a.heap + r.heap, index: a.index + r.index }), {
          name,
          rows: 0,
          heap: 0,
          index: 0,
        });
      out.push(
        '',
        formatTable(
          ['Partition', 'Readings', 'Heap GB', 'Index GB', 'Heap B/reading', 'Index B/reading', 'Total B/reading'],
          [
            ...ps.map(sizeRow),
            sizeRow(total(ps, 'part, all')),
            ...fs.map((r) => sizeRow({ ...r, name: 'flat reading' })),
          ],
        ),
      );

      // Detach and drop the oldest full month.
      const oldest = ps.find((r) => /_p\d{6}$/.test(r.name) && r.rows > 0)!;
      const oldestMonth = `${oldest.name.slice(-6, -2)}-${oldest.name.slice(-2)}-01`;
      const nextOfOldest = nextMonth(new Date(`${oldestMonth}T00:00:00Z`))
        .toISOString()
        .slice(0, 10);
      const detach = await timed(() =>
        part.query<{ name: string }>('SELECT reading_partitions_detach($1::date) AS name', [nextOfOldest]),
      );
      const detached = detach.result.rows.map((r) => r.name);
      const drop = await timed(() => part.exec(detached.map((t) => `DROP TABLE ${t};`).join('\n')));
      out.push(
        '',
        `Detach ${detached.join(', ')} (${Math.round(oldest.rows).toLocaleString('en-US')} readings): ${fmtMs(detach.ms)} ms; drop: ${fmtMs(drop.ms)} ms (load ${load1()})`,
      );

      // Migration 080 on the flat database's readings.
      const migration = await timed(() => migrate(flat));
      const flatAfter = Number(await count(flat));
      out.push(
        `Migration 080 on the flat database (${flatCount.toLocaleString('en-US')} readings, ${flatAfter.toLocaleString('en-US')} after): ${fmtMs(migration.ms)} ms (load ${load1()})`,
      );
      log(`disk at the end:\n${diskFree()}`);
    } finally {
      await part.close();
      await flat.close();
    }
  } finally {
    await cluster.stop();
  }
  console.log(`\nCapacity (npm run bench:capacity -w bench), ${new Date().toISOString()}`);
  for (const line of machineInfo(version)) console.log(`- ${line}`);
  console.log(
    `- ${n.toLocaleString('en-US')} devices, hourly readings; load average (1 min) in the tables; the machine is shared`,
  );
  console.log(
    `- settings: ${Object.entries(POSTGRES_SETTINGS)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}; fsync on`,
  );
  console.log(out.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
