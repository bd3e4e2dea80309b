import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
// Patroni's /primary and /replica) under the built server while four collectors post telegrams without
// pause, the way their `curl --retry` does, and a reader polls. The primary is lost in three ways, in
// turn: its postmaster killed (SIGKILL), its Patroni killed (PostgreSQL runs on unwatched until
// Patroni is started again, as systemd does), and frozen (SIGSTOP of every PostgreSQL process, then of
// its Patroni once that waits on PostgreSQL mid-cycle, for longer than the leader lock's `ttl`, then
// SIGCONT: a stalled disk, then a paused VM; docs/operations.md, "A frozen primary"). After
// each, Patroni promotes the synchronous standby and the old primary comes back as a standby and never
// leads again; every telegram the server acknowledged is in the database once; HAProxy never has two
// writers up; while the writer is gone a request answers 503 with Retry-After, never 500, never a hang.
// The figures are printed for docs/scaling.md.

const { findPostgresBin } = (await import(new URL('../../../scripts/pg-cluster.mjs', import.meta.url).href)) as {
  findPostgresBin(): string | undefined;
};

type Loss = 'postmaster' | 'patroni' | 'freeze';
const LOSSES: Loss[] = ['freeze', 'postmaster', 'freeze', 'patroni', 'freeze'];
/**
 * Shorter than deploy/failover/patroni.yml's 20/5/5 (Patroni's rule: loop_wait + 2 × retry_timeout
 * <= ttl) so that a freeze well past the lock's ttl takes seconds, not a minute.
 */
const TIMINGS = { ttl: 10, loop_wait: 2, retry_timeout: 3 };
const TTL_MS = TIMINGS.ttl * 1000;
/** How long a freeze lasts at least (FREEZE_SECONDS to try others). */
const FREEZE_MS = Number(process.env.FREEZE_SECONDS ?? 0) * 1000 || 2.5 * TTL_MS;
const COLLECTORS = 4;
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

interface Event {
  loss: Loss;
  node: string;
  /** From the loss until a POST started after it is acknowledged. */
  writesBackMs: number;
  /** How long the node was frozen (freezes only). */
  frozenMs?: number;
  /** From the loss until the old primary streams again as a standby (or, wrongly, leads again). */
  rejoinedMs: number;
  /** The old primary led again after it came back (the failure this lane exists for). */
  ledAgain: boolean;
  answers: Record<string, number>;
  reads: Record<string, number>;
}

/** A standby that replays its primary: Patroni 3.0 says `running`, later versions `streaming`. */
const following = (state: string) => state === 'running' || state === 'streaming';
const isStandby = (role: string) => role === 'replica' || role === 'sync_standby';

const count = (into: Record<string, number>, key: string | number) => {
  into[key] = (into[key] ?? 0) + 1;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('losing the primary under Patroni (failover profile: kills and freezes)', () => {
  let cluster: PatroniCluster;
  let db: Db | undefined;
  let dataDir: string;
  let server: ChildProcess | undefined;
  let key: string;
  let user: { username: string; password: string };

  beforeAll(async () => {
    const bin = findPostgresBin();
    if (!bin) throw new Error('PostgreSQL server binaries not found: apt-get install -y postgresql-15');
    cluster = await startPatroniCluster({ bin, timings: TIMINGS });
    const setup = openPostgres(cluster.writerUrl, ZONE);
    try {
      await migrate(setup);
      const flat = await makeFlat(setup, await makeBuilding(setup), { order: 1 });
      for (let d = 0; d < DEVICES; d++) {
        await makeDevice(setup, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `F${d}` });
      }
      key = (await createCollectorKey(setup, 'failover test', null)).Key;
      user = await makeUser(setup, { groupId: GROUP.operator });
    } finally {
      // No connection of the test's own through the failovers: only the server's are under test.
      await setup.close();
    }
    dataDir = mkdtempSync(path.join(tmpdir(), 'rodmenys-failover-'));
  }, 240_000);

  afterAll(async () => {
    // FAILOVER_LOGS=folder keeps each node's Patroni and PostgreSQL output.
    const keep = process.env.FAILOVER_LOGS;
    if (keep && cluster) for (const n of cluster.nodes) writeFileSync(path.join(keep, `${n.name}.log`), n.log());
    server?.kill('SIGKILL');
    await db?.close();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(`keeps every acknowledged telegram once through ${LOSSES.join(', ')} of the primary, one writer at a time, answering 503 meanwhile`, async () => {
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
    const answered = (what: string, res: Response | undefined, started: number) => {
      if (!res) bad.push(`${what}: no answer within 30 s (${Date.now() - started} ms)`);
      else if (res.status !== 200 && res.status !== 503) bad.push(`${what}: ${res.status}`);
      else if (res.status === 503 && res.headers.get('retry-after') !== '5')
        bad.push(`${what}: 503 without Retry-After: 5`);
    };
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
          answered('POST', res, started);
          await res?.arrayBuffer();
          if (res?.status === 200) {
            for (const n of numbers) acknowledged.add(n);
            lastAckAt = Math.max(lastAckAt, started);
            break;
          }
          if (!writing) return;
          await sleep(200);
        }
      }
    };
    const reader = async () => {
      while (writing) {
        const started = Date.now();
        const res = await fetch(
          `${base}${urlOf(contract.getDevicesData, { query: { dateFrom: '2026-01-01', dateTill: '2026-01-31', deviceTypeId: DEVICE_TYPE.coldWaterMeter } })}`,
          { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) },
        ).catch(() => undefined);
        count(reads, res?.status ?? 'no answer');
        answered('read', res, started);
        await res?.arrayBuffer();
        await sleep(200);
      }
    };
    /** Every 100 ms: which servers HAProxy has up as writers (polls answered are counted); any moment with two is kept. */
    const twoWriters: string[] = [];
    let writerPolls = 0;
    const writerWatch = async () => {
      while (writing) {
        const up = await cluster.writersUp().catch(() => undefined);
        if (up) writerPolls++;
        if (up && up.length > 1) twoWriters.push(`${new Date().toISOString()} ${up.join('+')}`);
        await sleep(100);
      }
    };
    const running = [...Array.from({ length: COLLECTORS }, collector), reader(), writerWatch()];
    const events: Event[] = [];
    const logs = () => cluster.nodes.map((n) => `── ${n.name}\n${n.log().slice(-3000)}`).join('\n');
    const startedAt = Date.now();
    try {
      for (const [k, loss] of LOSSES.entries()) {
        await waitUntil('acknowledged telegrams', async () => acknowledged.size >= (k + 1) * 100, 60_000);
        const old = (await cluster.primary()) as PatroniNode;
        expect(old).toBeDefined();
        answers = {};
        reads = {};
        const lostAt = Date.now();
        let frozenMs: number | undefined;
        let writesBackMs = 0;
        /** A POST started after `since` acknowledged: since the loss, or since another node leads. */
        let since = lostAt;
        const writesBack = async () => {
          if (lastAckAt <= since) return false;
          writesBackMs ||= Date.now() - lostAt;
          return true;
        };
        const anotherLeads = async () => {
          const leader = await cluster.primary();
          return leader !== undefined && leader.name !== old.name;
        };
        if (loss === 'postmaster') {
          cluster.killPostgres(old);
        } else if (loss === 'patroni') {
          await cluster.killPatroni(old);
          // Dead long enough for the lock to expire and another node to lead, then started again.
          await waitUntil('another node leading', anotherLeads, 120_000, logs);
          // Acknowledged before HAProxy took the unwatched node out: not writes back.
          since = Date.now();
          cluster.startPatroni(old);
        } else {
          const thaw = await cluster.freeze(old, TIMINGS.loop_wait * 1000 + 1000);
          try {
            // Frozen past the lock's ttl, until another node leads and writes are back on it.
            await waitUntil('another node leading', anotherLeads, 120_000, logs);
            await waitUntil('writes again', writesBack, 120_000, logs);
            await sleep(Math.max(0, lostAt + FREEZE_MS - Date.now()));
          } finally {
            thaw();
          }
          frozenMs = Date.now() - lostAt;
        }
        await waitUntil('writes again', writesBack, 120_000, logs);
        const during = { answers: { ...answers }, reads: { ...reads } };
        // Back as a standby, or (the failure) leading again.
        let ledAgain = false;
        await waitUntil(
          `${old.name} back as a standby`,
          async () => {
            const members = await cluster.members();
            const me = members.find((m) => m.name === old.name);
            // Leading again is the failure looked for: counted, and the run goes on to count the loss.
            if (me?.role === 'leader') ledAgain = true;
            return ledAgain || (!!me && isStandby(me.role) && following(me.state));
          },
          150_000,
          logs,
        );
        events.push({
          loss,
          node: old.name,
          writesBackMs,
          frozenMs,
          rejoinedMs: Date.now() - lostAt,
          ledAgain,
          ...during,
        });
        // The next loss needs a leader and two streaming standbys, one synchronous. A cluster whose old
        // primary led again may never get there (the node it demoted cannot follow): then the losses
        // stop here and the count below shows what was lost.
        const healthy = waitUntil(
          'a leader and a synchronous standby',
          async () => {
            const members = await cluster.members();
            if (members.some((m) => m.name === old.name && m.role === 'leader')) ledAgain = true;
            return (
              members.some((m) => m.role === 'leader' && m.state === 'running') &&
              members.filter((m) => isStandby(m.role) && following(m.state)).length === 2 &&
              members.some((m) => m.role === 'sync_standby')
            );
          },
          120_000,
          logs,
        );
        const broken = await healthy.then(
          () => false,
          (err: Error) => {
            if (!ledAgain) throw err;
            return true;
          },
        );
        events.at(-1)!.ledAgain = ledAgain;
        if (broken) break;
      }
    } finally {
      writing = false;
      await Promise.all(running);
    }

    db = openPostgres(cluster.writerUrl, ZONE);
    const { rows } = await db.query<{ n: number; copies: number }>(
      `SELECT ((extract(epoch FROM ts) - extract(epoch FROM timestamptz '2026-01-01 00:00Z')) / 60)::int AS n,
              count(*)::int AS copies
         FROM telegram GROUP BY 1`,
    );
    const stored = new Map(rows.map((r) => [r.n, r.copies]));
    const lost = [...acknowledged].filter((n) => !stored.has(n));
    const duplicated = rows.filter((r) => r.copies > 1).map((r) => r.n);
    const ready = await fetch(`${base}/api/ready`).catch(() => undefined);
    console.log(
      `failover figures: ${JSON.stringify(
        {
          seconds: Math.round((Date.now() - startedAt) / 1000),
          acknowledged: acknowledged.size,
          lost: lost.length,
          duplicated: duplicated.length,
          writerPolls,
          twoWriters,
          events,
        },
        null,
        1,
      )}`,
    );
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(events.filter((e) => e.ledAgain).map((e) => `${e.loss} of ${e.node}`)).toEqual([]);
    expect(twoWriters).toEqual([]);
    expect(writerPolls).toBeGreaterThan(100);
    expect(bad).toEqual([]);
    // The server never died, and answers once a writer is back.
    expect(server.exitCode).toBeNull();
    expect(ready?.status).toBe(200);
    for (const event of events) {
      // While the writer was gone the server said so (503 with Retry-After), never 500.
      expect(event.answers[503] ?? 0).toBeGreaterThan(0);
    }
    expect(events.filter((e) => e.loss === 'freeze').every((e) => e.frozenMs! > TTL_MS)).toBe(true);
  }, 1_500_000);
});
