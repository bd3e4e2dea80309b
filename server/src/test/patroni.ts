import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parse, stringify } from 'yaml';
import { freePort } from './built-server.js';
import { childrenOf, serversUp } from './cluster-probes.js';

// The failover profile of deploy/failover/ started for a test (docs/operations.md, "Failover"): one
// etcd member, three PostgreSQL nodes under Patroni and HAProxy, in a temp folder on free ports of
// 127.0.0.1, each from the deploy file itself with only its addresses, folders and passwords (trust
// on 127.0.0.1) replaced. As root, Patroni and PostgreSQL run as the `postgres` system user. The DCS
// section is the deploy file's own (`etcd`, the v2 API, or `etcd3`): etcd serves both.

// FAILOVER_PROFILE: another folder of the same files, e.g. an earlier commit's deploy/failover/ to
// run the lane against it (`git archive <commit> deploy/failover | tar x -C /tmp/old`).
const DEPLOY = process.env.FAILOVER_PROFILE || path.resolve(import.meta.dirname, '../../../deploy/failover');
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
  /** SIGKILL to the node's Patroni alone (its PostgreSQL runs on, unwatched). */
  killPatroni(node: PatroniNode): Promise<void>;
  /** Starts the node's Patroni again (what systemd's `Restart=on-failure` does). */
  startPatroni(node: PatroniNode): void;
  /**
   * SIGSTOP to every PostgreSQL process of the node, and `patroniAfterMs` later to its Patroni (a
   * stalled disk, then the whole VM paused): given a loop_wait or more, Patroni is caught in the
   * middle of its cycle, waiting for PostgreSQL after it read the cluster's state. Resolves to a
   * function that sends them all SIGCONT.
   */
  freeze(node: PatroniNode, patroniAfterMs: number): Promise<() => void>;
  /** The servers HAProxy has up behind its writer port now (its stats socket's `show stat`). */
  writersUp(): Promise<string[]>;
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
  timings,
}: {
  bin: string;
  archive?: boolean;
  env?: Record<string, string>;
  /** Overrides the deploy file's `ttl`, `loop_wait` and `retry_timeout` (shorter: a faster lane). */
  timings?: { ttl: number; loop_wait: number; retry_timeout: number };
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
  /** SIGCONT for the processes a test froze and has not woken yet (a stopped process ignores the rest). */
  const thaws = new Set<() => void>();
  const killAllSync = () => {
    for (const thaw of thaws) thaw();
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
      // As deploy/failover/etcd.env: Patroni's `etcd` section speaks the v2 API.
      '--enable-v2=true',
    ]);
    await waitUntil('etcd', async () => (await status(`http://127.0.0.1:${client}/health`)) === 200, 30_000, etcd.log);

    const template = parse(readFileSync(path.join(DEPLOY, 'patroni.yml'), 'utf8'));
    const dcsSection = 'etcd' in template ? 'etcd' : 'etcd3';
    const patroniProcesses = new Map<string, ChildProcess>();
    const patroniLogs = new Map<string, string>();
    const startPatroni = (name: string, file: string) => {
      // One log per node across restarts.
      const before = patroniLogs.get(name) ?? '';
      const patroni = daemon(PATRONI, [file], { asPostgres: true, env });
      patroniProcesses.set(name, patroni.child);
      patroniLogs.set(name, before);
      patroni.child.stdout?.on('data', (c) => patroniLogs.set(name, (patroniLogs.get(name)! + c).slice(-200_000)));
      patroni.child.stderr?.on('data', (c) => patroniLogs.set(name, (patroniLogs.get(name)! + c).slice(-200_000)));
    };
    const configFiles = new Map<string, string>();
    for (let i = 1; i <= 3; i++) {
      const [pgPort, apiPort] = [await freePort(), await freePort()];
      const home = path.join(dir, `pg${i}`);
      mkdirSync(home, { mode: 0o700 });
      if (owner) chownSync(home, owner.uid, owner.gid);
      const config = structuredClone(template);
      config.name = `pg${i}`;
      config.restapi = { listen: `127.0.0.1:${apiPort}`, connect_address: `127.0.0.1:${apiPort}` };
      config[dcsSection] = { hosts: `127.0.0.1:${client}` };
      // All three nodes share this one machine: a watchdog that fired on a frozen node would reset
      // the whole machine, the test with it. deploy/failover/patroni.yml keeps it (`automatic`).
      config.watchdog = { mode: 'off' };
      config.bootstrap.pg_hba = [
        'local all all trust',
        'host replication all 127.0.0.1/32 trust',
        'host all all 127.0.0.1/32 trust',
      ];
      Object.assign(config.bootstrap.dcs, timings);
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
      configFiles.set(`pg${i}`, file);
      startPatroni(`pg${i}`, file);
      nodes.push({
        name: `pg${i}`,
        pgPort,
        apiPort,
        dataDir: config.postgresql.data_dir,
        log: () => patroniLogs.get(`pg${i}`) ?? '',
      });
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
    const statsSocket = path.join(dir, 'haproxy.sock');
    writeFileSync(cfg, haproxyConfig.replace(/stats socket \S+/, `stats socket ${statsSocket}`));
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
      async killPatroni(node) {
        const child = patroniProcesses.get(node.name)!;
        const exit = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exit;
      },
      startPatroni(node) {
        startPatroni(node.name, configFiles.get(node.name)!);
      },
      async freeze(node, patroniAfterMs) {
        const postmaster = Number(readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        const pids = [postmaster];
        const thaw = () => {
          thaws.delete(thaw);
          for (const pid of pids) {
            try {
              process.kill(pid, 'SIGCONT');
            } catch {}
          }
        };
        thaws.add(thaw);
        // The postmaster first (it forks no more), then its children.
        process.kill(postmaster, 'SIGSTOP');
        for (const pid of childrenOf(postmaster)) {
          try {
            process.kill(pid, 'SIGSTOP');
            pids.push(pid);
          } catch {}
        }
        await sleep(patroniAfterMs);
        const patroni = patroniProcesses.get(node.name)!.pid!;
        process.kill(patroni, 'SIGSTOP');
        pids.push(patroni);
        return thaw;
      },
      writersUp: () => serversUp(statsSocket, 'primary'),
      async stop() {
        process.off('exit', killAllSync);
        for (const thaw of thaws) thaw();
        const exits = children.map((c) =>
          c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve(),
        );
        // Patroni stops its PostgreSQL on SIGTERM; etcd and HAProxy go last.
        const patronis = [...patroniProcesses.values()].filter((c) => c.exitCode === null && c.signalCode === null);
        for (const c of patronis) c.kill('SIGTERM');
        await Promise.race([Promise.all(patronis.map((c) => new Promise((r) => c.once('exit', r)))), sleep(30_000)]);
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
