import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEVICE_TYPE } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgres } from '../../../scripts/pg-cluster.mjs';
import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPostgres } from '../db/postgres.js';
import { createCollectorKey } from '../services/ingest/collector-keys.js';
import { freePort, startBuiltServer } from '../test/built-server.js';
import { makeBuilding, makeDevice, makeFlat } from '../test/factories.js';

// docs/ingest.md §2 ("The answer"): kill the built server with SIGKILL in the middle of a large batch,
// restart it, send everything again: every telegram acknowledged before the kill
// is there exactly once, the interrupted batch is all there or not at all.
// PostgreSQL runs with fsync and synchronous_commit on (durable: true).
// It drives the built server (dist/): `npm run test:durable -w server` builds it first.

const DEVICES = 200;
const BATCH = 10_000;
const BATCHES = 8;

/** The built server on the cluster (its own DATA_DIR for the token secret). */
const startServer = (databaseUrl: string, port: number, dataDir: string): Promise<ChildProcess> =>
  startBuiltServer({ DATABASE_URL: databaseUrl, PORT: String(port), DATA_DIR: dataDir });

/** Batch b: telegram i of device (i % DEVICES), each at its own reception time. */
function batch(b: number): string {
  const lines: string[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = b * BATCH + i;
    const ts = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
    lines.push(
      JSON.stringify({ _: 'telegram', meter: 'iperl', id: `K${n % DEVICES}`, total_m3: n / 1000, timestamp: ts }),
    );
  }
  return lines.join('\n');
}

describe('POST /api/ingest/wmbusmeters: SIGKILL mid-batch (postgres, durable)', () => {
  let cluster: PostgresCluster;
  let db: Db;
  let key: string;
  let dataDir: string;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    cluster = await startPostgres({ durable: true });
    db = openPostgres(cluster.url, 'Europe/Vilnius');
    await migrate(db);
    const flat = await makeFlat(db, await makeBuilding(db), { order: 1 });
    for (let d = 0; d < DEVICES; d++) await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `K${d}` });
    key = (await createCollectorKey(db, 'crash test', null)).Key;
    dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-crash-'));
  }, 120_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    await db?.close();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged telegram exactly once and never half a batch', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/api/ingest/wmbusmeters`;
    const send = (b: number) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
        body: batch(b),
      });
    const bodies = Array.from({ length: BATCHES }, (_, b) => b);

    server = await startServer(cluster.url, port, dataDir);
    const acknowledged: number[] = [];
    for (const b of bodies.slice(0, 3)) {
      const res = await send(b);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ Stored: BATCH, Readings: BATCH });
      acknowledged.push(b);
    }
    // Batch 3 is in flight when the server dies: killed while its INSERT runs, before COMMIT.
    const inFlight = send(3).then(
      (res) => res.status,
      () => 'killed',
    );
    for (let waited = 0; waited < 10_000; waited += 2) {
      const { rowCount } = await db.query(
        "SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%INSERT INTO telegram%'",
      );
      if (rowCount) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    server.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    expect(await inFlight).toBe('killed');

    const count = async (from: number, to: number) =>
      (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM reading WHERE ts >= $1 AND ts < $2`, [
          new Date(Date.UTC(2026, 0, 1) + from * 60_000),
          new Date(Date.UTC(2026, 0, 1) + to * 60_000),
        ])
      ).rows[0]!.n;
    expect(await count(0, 3 * BATCH)).toBe(3 * BATCH);
    const interrupted = await count(3 * BATCH, 4 * BATCH);
    expect([0, BATCH]).toContain(interrupted);

    // Restart and send everything again, the acknowledged batches included.
    server = await startServer(cluster.url, port, dataDir);
    for (const b of bodies) {
      const res = await send(b);
      expect(res.status).toBe(200);
      const result = (await res.json()) as { Stored: number; Duplicates: number };
      if (acknowledged.includes(b)) expect(result).toMatchObject({ Stored: 0, Duplicates: BATCH });
      expect(result.Stored + result.Duplicates).toBe(BATCH);
    }
    expect(await count(0, BATCHES * BATCH)).toBe(BATCHES * BATCH);
    const { rows } = await db.query<{ n: number; distinct: number; telegrams: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (device_id, ts))::int AS distinct,
              (SELECT count(*)::int FROM telegram) AS telegrams FROM reading`,
    );
    expect(rows[0]).toEqual({ n: BATCHES * BATCH, distinct: BATCHES * BATCH, telegrams: BATCHES * BATCH });
  }, 120_000);
});
