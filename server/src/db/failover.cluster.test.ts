import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollectorKey } from '../services/ingest/collector-keys.js';
import { urlOf } from '../test/app.js';
import { freePort, startBuiltServer } from '../test/built-server.js';
import { makeBuilding, makeDevice, makeFlat, makeUser } from '../test/factories.js';
import { type PatroniCluster, type PatroniNode, startPatroniCluster, waitUntil } from '../test/patroni.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPostgres } from './postgres.js';

// docs/operations.md, "Failover", and docs/scaling.md, "Losing the primary": the failover profile of
// deploy/failover/ (etcd, three PostgreSQL nodes under Patroni in synchronous mode, HAProxy checking
// Patroni's /primary and /replica) under the built server while two collectors post telegrams without
// pause, the way their `curl --retry` does. The primary's postmaster is killed with SIGKILL, KILLS
// times; after each, Patroni promotes the synchronous standby, the old primary comes back as a
// standby, and every telegram the server acknowledged is in the database. While the writer is gone a
// request answers 503 with Retry-After, never 500. The figures are printed for docs/scaling.md.

const { findPostgresBin } = (await import(new URL('../../../scripts/pg-cluster.mjs', import.meta.url).href)) as {
  findPostgresBin(): string | undefined;
};

const KILLS = 3;
const DEVICES = 30;
const PER_POST = 5;
const ZONE = 'Europe/Vilnius';

/** Telegram n: device n % DEVICES at minute n of 2026, so that each is found by its time. */
const telegram = (n: number) =>
  JSON.stringify({
    _: 'telegram',
    meter: 'iperl',
    id: `F${n % DEVICES}`,
    total_m3: n / 1000,
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
  });

interface Kill {
  node: string;
  /** From the SIGKILL until a POST started after it is acknowledged. */
  writesBackMs: number;
  /** From the SIGKILL until the old primary streams again as a standby. */
  rejoinedMs: number;
  answers: Record<string, number>;
  reads: Record<string, number>;
}

/** A standby that replays its primary: Patroni 3.0 says `running`, later versions `streaming`. */
const following = (state: string) => state === 'running' || state === 'streaming';

const count = (into: Record<string, number>, key: string | number) => {
  into[key] = (into[key] ?? 0) + 1;
};

describe('losing the primary under Patroni (failover profile, SIGKILL)', () => {
  let cluster: PatroniCluster;
  let db: Db;
  let dataDir: string;
  let server: ChildProcess | undefined;
  let key: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    const bin = findPostgresBin();
    if (!bin) throw new Error('PostgreSQL server binaries not found: apt-get install -y postgresql-15');
    cluster = await startPatroniCluster({ bin });
    db = openPostgres(cluster.writerUrl, ZONE);
    await migrate(db);
    const flat = await makeFlat(db, await makeBuilding(db), { order: 1 });
    for (let d = 0; d < DEVICES; d++) await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `F${d}` });
    key = (await createCollectorKey(db, 'failover test', null)).Key;
    user = await makeUser(db, { groupId: GROUP.operator });
    dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-failover-'));
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    await db?.close();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(`keeps every acknowledged telegram through ${KILLS} kills of the primary, answering 503 meanwhile`, async () => {
    const port = await freePort();
    server = await startBuiltServer({
      DATABASE_URL: cluster.writerUrl,
      DATABASE_READ_URL: cluster.readerUrl,
      PORT: String(port),
      DATA_DIR: dataDir,
      TIME_ZONE: ZONE,
      SCHEDULER: 'true',
    });
    const base = `http://127.0.0.1:${port}`;
    const signIn = await fetch(`${base}${urlOf(contract.authenticate)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    expect(signIn.status).toBe(200);
    const token = ((await signIn.json()) as { Token: string }).Token;

    /** Telegram numbers whose POST was answered 2xx. */
    const acknowledged = new Set<number>();
    let answers: Record<string, number> = {};
    let reads: Record<string, number> = {};
    const bad: string[] = [];
    let lastAckAt = 0;
    let next = 0;
    let writing = true;
    const collector = async () => {
      while (writing) {
        const numbers = Array.from({ length: PER_POST }, () => next++);
        // As `curl --retry`: the same telegrams again until they are acknowledged.
        for (;;) {
          const started = Date.now();
          const res = await fetch(`${base}/api/ingest/wmbusmeters`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
            body: numbers.map(telegram).join('\n'),
            signal: AbortSignal.timeout(30_000),
          }).catch(() => undefined);
          count(answers, res?.status ?? 'no answer');
          if (res && res.status !== 200 && res.status !== 503) bad.push(`${res.status} ${await res.text()}`);
          if (res?.status === 503 && res.headers.get('retry-after') !== '5') bad.push('503 without Retry-After: 5');
          if (res?.status === 200) {
            for (const n of numbers) acknowledged.add(n);
            lastAckAt = Math.max(lastAckAt, started);
            break;
          }
          await res?.arrayBuffer();
          if (!writing) return;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    };
    const reader = async () => {
      while (writing) {
        const res = await fetch(
          `${base}${urlOf(contract.getDevicesData, { query: { dateFrom: '2026-01-01', dateTill: '2026-01-31', deviceTypeId: DEVICE_TYPE.coldWaterMeter } })}`,
          { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) },
        ).catch(() => undefined);
        count(reads, res?.status ?? 'no answer');
        if (res && res.status !== 200 && res.status !== 503) bad.push(`read ${res.status} ${await res.text()}`);
        await res?.arrayBuffer();
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const running = [collector(), collector(), reader()];
    const kills: Kill[] = [];
    try {
      for (let k = 0; k < KILLS; k++) {
        await waitUntil('acknowledged telegrams', async () => acknowledged.size >= (k + 1) * 40, 60_000);
        const old = (await cluster.primary()) as PatroniNode;
        expect(old).toBeDefined();
        answers = {};
        reads = {};
        cluster.killPostgres(old);
        const killedAt = Date.now();
        let writesBackMs = 0;
        await waitUntil(
          'writes again',
          async () => {
            if (lastAckAt <= killedAt) return false;
            writesBackMs = Date.now() - killedAt;
            return true;
          },
          120_000,
          () => cluster.nodes.map((n) => `── ${n.name}\n${n.log().slice(-3000)}`).join('\n'),
        );
        const during = { answers: { ...answers }, reads: { ...reads } };
        const promoted = await cluster.primary();
        expect(promoted?.name).not.toBe(old.name);
        await waitUntil(
          `${old.name} back as a standby`,
          async () =>
            (await cluster.members()).some(
              (m) => m.name === old.name && ['replica', 'sync_standby'].includes(m.role) && following(m.state),
            ),
          150_000,
          () => old.log().slice(-4000),
        );
        kills.push({ node: old.name, writesBackMs, rejoinedMs: Date.now() - killedAt, ...during });
        // The next kill needs a synchronous standby again.
        await waitUntil(
          'a synchronous standby',
          async () => (await cluster.members()).some((m) => m.role === 'sync_standby' && following(m.state)),
          60_000,
        );
      }
    } finally {
      writing = false;
      await Promise.all(running);
    }

    const { rows } = await db.query<{ n: number }>(
      `SELECT ((extract(epoch FROM ts) - extract(epoch FROM timestamptz '2026-01-01 00:00Z')) / 60)::int AS n FROM telegram`,
    );
    const stored = new Set(rows.map((r) => r.n));
    const lost = [...acknowledged].filter((n) => !stored.has(n));
    console.log(
      `failover figures: ${JSON.stringify({ acknowledged: acknowledged.size, lost: lost.length, kills }, null, 1)}`,
    );
    expect(bad).toEqual([]);
    expect(lost).toEqual([]);
    for (const kill of kills) {
      // While the writer was gone the server said so (503 with Retry-After), never 500.
      expect(kill.answers[503] ?? 0).toBeGreaterThan(0);
    }
  }, 900_000);
});
