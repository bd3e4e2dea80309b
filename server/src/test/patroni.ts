import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parse, stringify } from 'yaml';
import { freePort } from './built-server.js';

// The failover profile of deploy/failover/ started for a test (docs/operations.md, "Failover"): one
// etcd member, three PostgreSQL nodes under Patroni and HAProxy, in a temp folder on free ports of
// 127.0.0.1, each from the deploy file itself with only its addresses, folders and passwords (trust
// on 127.0.0.1) replaced. As root, Patroni and PostgreSQL run as the `postgres` system user.

const DEPLOY = path.resolve(import.meta.dirname, '../../../deploy/failover');
export const PATRONI = process.env.PATRONI_BIN || '/usr/bin/patroni';
export const ETCD = process.env.ETCD_BIN || '/usr/bin/etcd';
const HAPROXY = process.env.HAPROXY_BIN || '/usr/sbin/haproxy';
const isRoot = process.getuid?.() === 0;
const postgresUser = () =>
  isRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : undefined;

export interface PatroniNode {
  name: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
  /** Patroni's output so far. */
  log(): string;
}

export interface Member {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

export interface PatroniCluster {
  nodes: PatroniNode[];
  /** HAProxy's writer port (deploy/failover/haproxy.cfg's 5000) and reader port (5001), as URLs. */
  writerUrl: string;
  readerUrl: string;
  /** The members as Patroni's REST API tells them (GET /cluster of the first node that answers). */
  members(): Promise<Member[]>;
  /** The node whose Patroni answers /primary with 200, if any. */
  primary(): Promise<PatroniNode | undefined>;
  /** SIGKILL to the node's postmaster; returns its pid. */
  killPostgres(node: PatroniNode): number;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function status(url: string, method = 'GET'): Promise<number> {
  try {
    const res = await fetch(url, { method, signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Waits until `ok` (polled every 200 ms) or throws with `detail()` after `ms`. */
export async function waitUntil(what: string, ok: () => Promise<boolean>, ms: number, detail = () => '') {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}\n${detail()}`);
    await sleep(200);
  }
}

export const hasPatroniBinaries = () => [PATRONI, ETCD, HAPROXY].every((f) => existsSync(f));

/**
 * Starts etcd, three Patroni nodes and HAProxy; resolves once there is a primary and two
 * streaming standbys, one of them synchronous. `env` is given to Patroni (and so to PostgreSQL's
 * archive_command: pgBackRest's PGBACKREST_* settings); without `archive` WAL archiving is off.
 */
export async function startPatroniCluster({
  bin,
  archive = false,
  env = {},
}: {
  bin: string;
  archive?: boolean;
  env?: Record<string, string>;
}): Promise<PatroniCluster> {
  for (const f of [PATRONI, ETCD, HAPROXY]) {
    if (!existsSync(f)) throw new Error(`${f} not found: apt-get install -y patroni etcd-server haproxy`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-patroni-'));
  const owner = postgresUser();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const children: ChildProcess[] = [];
  const nodes: PatroniNode[] = [];
  const dataDirs: string[] = [];
  const killAllSync = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const data of dataDirs) {
      if (!existsSync(path.join(data, 'postmaster.pid'))) continue;
      const args = ['stop', '-D', data, '-m', 'immediate'];
      if (owner) spawnSync('runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' });
      else spawnSync(path.join(bin, 'pg_ctl'), args, { stdio: 'ignore' });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killAllSync);
  const daemon = (
    file: string,
    args: string[],
    options: { asPostgres?: boolean; env?: Record<string, string> } = {},
  ) => {
    let output = '';
    const child = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: dir, ...options.env },
      ...(options.asPostgres && owner ? owner : {}),
    });
    child.stdout?.on('data', (c) => (output = (output + c).slice(-200_000)));
    child.stderr?.on('data', (c) => (output = (output + c).slice(-200_000)));
    children.push(child);
    return { child, log: () => output };
  };

  try {
    // etcd: one member (production runs three, deploy/failover/etcd.env).
    const [client, peer] = [await freePort(), await freePort()];
    const etcd = daemon(ETCD, [
      '--name=test',
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${client}`,
      `--advertise-client-urls=http://127.0.0.1:${client}`,
      `--listen-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-cluster=test=http://127.0.0.1:${peer}`,
    ]);
    await waitUntil('etcd', async () => (await status(`http://127.0.0.1:${client}/health`)) === 200, 30_000, etcd.log);

    const template = parse(readFileSync(path.join(DEPLOY, 'patroni.yml'), 'utf8'));
    for (let i = 1; i <= 3; i++) {
      const [pgPort, apiPort] = [await freePort(), await freePort()];
      const home = path.join(dir, `pg${i}`);
      mkdirSync(home, { mode: 0o700 });
      if (owner) chownSync(home, owner.uid, owner.gid);
      const config = structuredClone(template);
      config.name = `pg${i}`;
      config.restapi = { listen: `127.0.0.1:${apiPort}`, connect_address: `127.0.0.1:${apiPort}` };
      config.etcd3 = { hosts: `127.0.0.1:${client}` };
      config.bootstrap.pg_hba = [
        'local all all trust',
        'host replication all 127.0.0.1/32 trust',
        'host all all 127.0.0.1/32 trust',
      ];
      const parameters = config.bootstrap.dcs.postgresql.parameters;
      if (!archive) {
        parameters.archive_mode = 'off';
        delete parameters.archive_command;
      }
      // Throwaway clusters: fewer connections and less memory than the deploy file asks for.
      parameters.max_connections = 100;
      config.postgresql.listen = `127.0.0.1:${pgPort}`;
      config.postgresql.connect_address = `127.0.0.1:${pgPort}`;
      config.postgresql.data_dir = path.join(home, 'data');
      config.postgresql.bin_dir = bin;
      config.postgresql.pgpass = path.join(home, 'pgpass');
      config.postgresql.authentication = {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'postgres', password: 'postgres' },
        rewind: { username: 'postgres', password: 'postgres' },
      };
      config.postgresql.parameters = { unix_socket_directories: home, shared_buffers: '32MB' };
      const file = path.join(home, 'patroni.yml');
      writeFileSync(file, stringify(config));
      if (owner) chownSync(file, owner.uid, owner.gid);
      dataDirs.push(config.postgresql.data_dir);
      const patroni = daemon(PATRONI, [file], { asPostgres: true, env });
      nodes.push({ name: `pg${i}`, pgPort, apiPort, dataDir: config.postgresql.data_dir, log: patroni.log });
    }
    const members = async (): Promise<Member[]> => {
      for (const node of nodes) {
        try {
          const res = await fetch(`http://127.0.0.1:${node.apiPort}/cluster`, { signal: AbortSignal.timeout(2000) });
          if (res.ok) return ((await res.json()) as { members: Member[] }).members;
        } catch {}
      }
      return [];
    };
    const logs = () => nodes.map((n) => `── ${n.name}\n${n.log().slice(-4000)}`).join('\n');
    await waitUntil(
      'a primary and a synchronous standby',
      async () => {
        const m = await members();
        return (
          m.some((x) => x.role === 'leader' && x.state === 'running') &&
          m.filter((x) => ['replica', 'sync_standby'].includes(x.role) && ['running', 'streaming'].includes(x.state))
            .length === 2 &&
          m.some((x) => x.role === 'sync_standby')
        );
      },
      150_000,
      logs,
    );

    const [writer, reader] = [await freePort(), await freePort()];
    const byName = new Map(nodes.map((n) => [n.name, n]));
    const haproxyConfig = readFileSync(path.join(DEPLOY, 'haproxy.cfg'), 'utf8')
      .replace('bind *:5000', `bind 127.0.0.1:${writer}`)
      .replace('bind *:5001', `bind 127.0.0.1:${reader}`)
      .replace(/server (pg\d) \S+:5432 (.*) check port 8008/g, (_, name: string, rest: string) => {
        const node = byName.get(name)!;
        return `server ${name} 127.0.0.1:${node.pgPort} ${rest} check port ${node.apiPort}`;
      });
    const cfg = path.join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig);
    execFileSync(HAPROXY, ['-c', '-q', '-f', cfg]);
    const haproxy = daemon(HAPROXY, ['-db', '-f', cfg]);
    await waitUntil('HAProxy', () => canConnect(writer), 10_000, haproxy.log);
    // HAProxy counts every server up until its checks say otherwise: wait until five connections
    // in a row through the writer's port reach the primary (round robin would show a standby).
    const writerUrl = `postgres://postgres@127.0.0.1:${writer}/postgres`;
    let inARow = 0;
    await waitUntil(
      'HAProxy to send writes only to the primary',
      async () => {
        const client = new pg.Client({ connectionString: writerUrl });
        try {
          await client.connect();
          const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
          inARow = rows[0]!.standby ? 0 : inARow + 1;
        } catch {
          inARow = 0;
        } finally {
          await client.end().catch(() => {});
        }
        return inARow >= 5;
      },
      30_000,
      haproxy.log,
    );

    return {
      nodes,
      writerUrl,
      readerUrl: `postgres://postgres@127.0.0.1:${reader}/postgres`,
      members,
      async primary() {
        for (const node of nodes) {
          if ((await status(`http://127.0.0.1:${node.apiPort}/primary`, 'OPTIONS')) === 200) return node;
        }
        return undefined;
      },
      killPostgres(node) {
        const pid = Number(readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(pid, 'SIGKILL');
        return pid;
      },
      async stop() {
        process.off('exit', killAllSync);
        const exits = children.map((c) =>
          c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve(),
        );
        // Patroni stops its PostgreSQL on SIGTERM; etcd and HAProxy go last.
        for (const c of children.slice(1, 4)) c.kill('SIGTERM');
        await Promise.race([Promise.all(exits.slice(1, 4)), sleep(30_000)]);
        killAllSync();
        await Promise.race([Promise.all(exits), sleep(5_000)]);
      },
    };
  } catch (err) {
    killAllSync();
    process.off('exit', killAllSync);
    throw err;
  }
}
