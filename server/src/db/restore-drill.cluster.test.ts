import { type ChildProcess, execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findPostgresBin,
  freePort as freePgPort,
  type PostgresCluster,
  startPostgres,
} from '../../../scripts/pg-cluster.mjs';
import { createCollectorKey } from '../services/ingest/collector-keys.js';
import { urlOf } from '../test/app.js';
import { freePort, startBuiltServer } from '../test/built-server.js';
import { makeBuilding, makeDevice, makeFlat, makeUser } from '../test/factories.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { openPostgres } from './postgres.js';

// docs/operations.md, "Backups on a PostgreSQL server": the restore drill. A PostgreSQL server
// archiving its WAL to pgBackRest with deploy/failover/pgbackrest.conf (only the folders and port
// replaced), a full backup, then a known write after it (acknowledged telegrams and a publication),
// then a later one; restored to a point in time between the two into a fresh cluster, the built
// server started on it answers with every reading acknowledged before that point and the
// publication, and nothing written after it.

const PGBACKREST = '/usr/bin/pgbackrest';
const DEPLOY_CONF = path.resolve(import.meta.dirname, '../../../deploy/failover/pgbackrest.conf');
const ZONE = 'Europe/Vilnius';
const DEVICES = 10;
const TOKEN_SECRET = 'restore-drill-secret-restore-drill-secret-01';
const isRoot = process.getuid?.() === 0;
const exec = promisify(execFile);

/** A command as the `postgres` system user when we are root (PostgreSQL and pgBackRest refuse root). */
const asPostgres = (file: string, args: string[]) =>
  isRoot ? exec('runuser', ['-u', 'postgres', '--', file, ...args]) : exec(file, args);

const owner = () =>
  isRoot
    ? [
        Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      ]
    : undefined;

/** Telegrams `from`..`from+n-1`: device i % DEVICES, an hour apart from `start`, rising values. */
const telegrams = (from: number, n: number, start: number) =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      i,
      device: `R${i % DEVICES}`,
      ts: new Date(start + i * 3_600_000).toISOString(),
      line: JSON.stringify({
        _: 'telegram',
        meter: 'iperl',
        id: `R${i % DEVICES}`,
        total_m3: 10 + i / 100,
        timestamp: new Date(start + i * 3_600_000).toISOString(),
      }),
    };
  });

describe('pgBackRest: restore to a point in time after a known write (restore drill)', () => {
  let work: string;
  let cluster: PostgresCluster;
  let db: Db;
  let restoredDb: Db | undefined;
  let restoredData: string | undefined;
  const servers: ChildProcess[] = [];
  const bin = findPostgresBin() ?? '';
  if (!bin) throw new Error('the restore drill needs PostgreSQL binaries (PG_BIN or /usr/lib/postgresql)');
  let config: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'rodmenys-pgbackrest-'));
    const ids = owner();
    for (const d of ['repo', 'log', 'lock', 'restored']) mkdirSync(path.join(work, d));
    if (ids) for (const d of ['', 'repo', 'log', 'lock', 'restored']) chownSync(path.join(work, d), ids[0]!, ids[1]!);
    config = path.join(work, 'pgbackrest.conf');
    cluster = await startPostgres({
      durable: true,
      settings: {
        wal_level: 'replica',
        archive_mode: 'on',
        // deploy/failover/patroni.yml's archive_command, with this drill's configuration file.
        archive_command: `'${PGBACKREST} --config=${config} --stanza=rodmenys archive-push %p'`,
      },
    });
    writeFileSync(
      config,
      `${readFileSync(DEPLOY_CONF, 'utf8')
        .replace(/^repo1-path=.*$/m, `repo1-path=${path.join(work, 'repo')}`)
        .replace(/^pg1-path=.*$/m, `pg1-path=${path.join(cluster.dir, 'data')}\npg1-port=${cluster.port}`)
        .replace(/^pg1-socket-path=.*$/m, `pg1-socket-path=${path.join(cluster.dir, 'socket')}`)
        .replace('[global]', `[global]\nlog-path=${path.join(work, 'log')}\nlock-path=${path.join(work, 'lock')}`)}`,
    );
    if (ids) chownSync(config, ids[0]!, ids[1]!);
    db = openPostgres(cluster.url, ZONE);
    await migrate(db);
    const flat = await makeFlat(db, await makeBuilding(db), { order: 1 });
    for (let d = 0; d < DEVICES; d++) await makeDevice(db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: `R${d}` });
  }, 180_000);

  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await restoredDb?.close();
    if (restoredData)
      await asPostgres(path.join(bin, 'pg_ctl'), ['stop', '-D', restoredData, '-m', 'immediate']).catch(() => {});
    await db?.close();
    await cluster?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('restores every acknowledged reading and the publication written after the base backup, and nothing later', async () => {
    const key = (await createCollectorKey(db, 'drill', null)).Key;
    const operator = await makeUser(db, { groupId: GROUP.operator });
    const start = async (url: string) => {
      const port = await freePort();
      const dataDir = mkdtempSync(path.join(work, 'server-'));
      servers.push(
        await startBuiltServer({
          DATABASE_URL: url,
          PORT: String(port),
          DATA_DIR: dataDir,
          TIME_ZONE: ZONE,
          TOKEN_SECRET,
        }),
      );
      return `http://127.0.0.1:${port}`;
    };
    const post = async (base: string, lines: { line: string }[]) => {
      const res = await fetch(`${base}/api/ingest/wmbusmeters`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
        body: lines.map((t) => t.line).join('\n'),
      });
      expect(res.status).toBe(200);
    };
    const signIn = async (base: string) => {
      const res = await fetch(`${base}${urlOf(contract.authenticate)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: operator.username, password: operator.password }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { Token: string }).Token;
    };
    const pgbackrest = (...args: string[]) =>
      asPostgres(PGBACKREST, [`--config=${config}`, '--stanza=rodmenys', ...args]);

    const primary = await start(cluster.url);
    const january = Date.UTC(2026, 0, 1);
    const beforeBackup = telegrams(0, 200, january);
    await post(primary, beforeBackup);
    await pgbackrest('stanza-create');
    await pgbackrest('check');
    await pgbackrest('--type=full', 'backup');
    // pgBackRest keeps the backup's stop time in whole seconds and restores to a time only from a backup
    // that stopped before it: the known write below (and so the target) comes a second after the backup
    // ended. A whole CI run under load once wrote and published within that second, and the restore
    // found no backup set to start from.
    await new Promise((r) => setTimeout(r, 1100));

    // The known write after the base backup: more of January, and January's publication.
    const afterBackup = telegrams(200, 300, january);
    await post(primary, afterBackup);
    const token = await signIn(primary);
    const published = await fetch(`${primary}${urlOf(contract.publishStatements)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ month: '2026-01' }),
    });
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ Buildings: 1, Flats: 1 });
    const target = (
      await db.query<{ t: string }>("SELECT to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.USOF') AS t")
    ).rows[0]!.t;
    await new Promise((r) => setTimeout(r, 1100));
    // A later write: not in a restore to `target`.
    const later = telegrams(0, 50, Date.UTC(2026, 1, 1));
    await post(primary, later);
    await pgbackrest('check'); // switches the WAL segment and waits until it is archived

    // A fresh cluster from the repository alone, to `target`.
    restoredData = path.join(work, 'restored', 'data');
    await pgbackrest(
      `--pg1-path=${restoredData}`,
      '--type=time',
      `--target=${target}`,
      '--target-action=promote',
      'restore',
    );
    const port = await freePgPort();
    await asPostgres(path.join(bin, 'pg_ctl'), [
      'start',
      '-w',
      '-D',
      restoredData,
      '-l',
      path.join(work, 'restored', 'server.log'),
      '-o',
      `-p ${port} -k ${path.join(work, 'restored')} -c archive_mode=off`,
    ]);
    const restoredUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    restoredDb = openPostgres(restoredUrl, ZONE);
    for (let i = 0; ; i++) {
      const { rows } = await restoredDb.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
      if (!rows[0]!.recovering) break;
      if (i > 300) throw new Error('the restored cluster did not finish recovery');
      await new Promise((r) => setTimeout(r, 100));
    }

    // In the database: every acknowledged reading up to the target, none after it.
    const { rows } = await restoredDb.query<{ ts: string }>(
      `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts FROM reading`,
    );
    const stored = new Set(rows.map((r) => r.ts));
    expect([...beforeBackup, ...afterBackup].filter((t) => !stored.has(t.ts))).toEqual([]);
    expect(later.filter((t) => stored.has(t.ts))).toEqual([]);

    // The product started on it: the publication and January's last readings.
    const restored = await start(restoredUrl);
    const restoredToken = await signIn(restored);
    const difference = await fetch(
      `${restored}${urlOf(contract.getStatementDifference, { query: { month: '2026-01' } })}`,
      {
        headers: { authorization: `Bearer ${restoredToken}` },
      },
    );
    expect(difference.status).toBe(200);
    expect(await difference.json()).toMatchObject({ Published: 1, Changes: [] });
    const data = await fetch(
      `${restored}${urlOf(contract.getDevicesData, { query: { dateFrom: '2026-01-01', dateTill: '2026-01-31', deviceTypeId: DEVICE_TYPE.coldWaterMeter } })}`,
      { headers: { authorization: `Bearer ${restoredToken}` } },
    );
    expect(data.status).toBe(200);
    const devices = (await data.json()) as { DeviceCode?: string; TimeTill: string | null }[];
    expect(devices).toHaveLength(DEVICES);
    const last = new Map<string, string>();
    for (const t of afterBackup) last.set(t.device, t.ts);
    for (const d of devices) {
      expect(new Date(d.TimeTill!).toISOString()).toBe(last.get(d.DeviceCode!));
    }
  }, 300_000);
});
