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
import { w1Payload } from '../demo/seed/lorawan.js';
import { createConnection } from '../services/lorawan/connections.js';
import { chirpstackUplinkJson } from '../services/lorawan/envelope-writers.js';
import { freePort, startBuiltServer } from '../test/built-server.js';
import { makeBuilding, makeDevice, makeFlat } from '../test/factories.js';

// docs/lorawan.md ("Idempotency"): the built server killed with SIGKILL while 16 senders post
// uplinks one per request, as ChirpStack does. Every uplink answered 200 before the kill is stored
// with its reading, exactly once; after a restart everything is sent again: acknowledged ones are
// duplicates, and in the end each uplink is there once. PostgreSQL with fsync on (durable: true).

const DEVICES = 50;
const UPLINKS = 1_500;
const SENDERS = 16;
const START = Date.UTC(2026, 9, 1);

const devEui = (d: number) => `A8B2D00000${d.toString(16).toUpperCase().padStart(6, '0')}`;
/** Uplink n: device n % DEVICES, its own meter time, its value n litres. */
const uplink = (n: number) => {
  const at = new Date(START + n * 60_000);
  return JSON.stringify(
    chirpstackUplinkJson({
      devEui: devEui(n % DEVICES),
      fCnt: Math.floor(n / DEVICES) + 1,
      fPort: 100,
      payload: w1Payload(at, n, Array(23).fill(0)),
      time: new Date(at.getTime() + 1000).toISOString(),
    }),
  );
};

describe('POST /api/lorawan/chirpstack: SIGKILL among 16 senders (postgres, durable)', () => {
  let cluster: PostgresCluster;
  let db: Db;
  let key: string;
  let dataDir: string;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    cluster = await startPostgres({ durable: true });
    db = openPostgres(cluster.url, 'Europe/Vilnius');
    await migrate(db);
    const building = await makeBuilding(db);
    const flat = await makeFlat(db, building, { order: 1 });
    for (let d = 0; d < DEVICES; d++) {
      const id = await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `L${d}` });
      await db.query("UPDATE device SET dev_eui = $2, model = 'Qalcosonic W1' WHERE id = $1", [id, devEui(d)]);
    }
    key = (await createConnection(db, { kind: 'chirpstack', name: 'crash', locationIds: [building.id] }, null)).Key;
    dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-lns-crash-'));
  }, 120_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    await db?.close();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged uplink and its reading exactly once', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/api/lorawan/chirpstack?event=up`;
    const send = (n: number) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-rodmenys-key': key },
        body: uplink(n),
      });
    server = await startBuiltServer({ DATABASE_URL: cluster.url, PORT: String(port), DATA_DIR: dataDir });
    const acknowledged: number[] = [];
    let next = 0;
    let killed = false;
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (next < UPLINKS && !killed) {
          const n = next++;
          // Mid-stream, the server dies with requests in flight.
          if (n === Math.floor(UPLINKS / 2) && !killed) {
            killed = true;
            server!.kill('SIGKILL');
            return;
          }
          try {
            const res = await send(n);
            if (res.status === 200 && ((await res.json()) as { Outcome: string }).Outcome === 'stored')
              acknowledged.push(n);
          } catch {
            // the connection died with the server: not acknowledged
          }
        }
      }),
    );
    await new Promise((r) => (server!.exitCode !== null || server!.signalCode ? r(null) : server!.once('exit', r)));
    expect(acknowledged.length).toBeGreaterThan(UPLINKS / 4);
    const stored = async () =>
      (
        await db.query<{ v: number; n: number }>(
          'SELECT (value * 1000)::int AS v, count(*)::int AS n FROM reading GROUP BY 1 ORDER BY 1',
        )
      ).rows;
    const afterKill = new Map((await stored()).map((r) => [r.v, r.n]));
    for (const n of acknowledged) expect([n, afterKill.get(n)]).toEqual([n, 1]);

    // Restart and send everything again.
    server = await startBuiltServer({ DATABASE_URL: cluster.url, PORT: String(port), DATA_DIR: dataDir });
    const outcomes = new Map<number, string>();
    next = 0;
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (next < UPLINKS) {
          const n = next++;
          const res = await send(n);
          expect(res.status).toBe(200);
          outcomes.set(n, ((await res.json()) as { Outcome: string }).Outcome);
        }
      }),
    );
    for (const n of acknowledged) expect([n, outcomes.get(n)]).toEqual([n, 'duplicate']);
    const all = await stored();
    expect(all.length).toBe(UPLINKS);
    expect(all.every((r) => r.n === 1)).toBe(true);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM lorawan_uplink');
    expect(rows[0]!.n).toBe(UPLINKS);
  }, 180_000);
});
