// Throwaway PostgreSQL clusters for tests and benchmarks: initdb in a temp
// folder, a private port on 127.0.0.1, removed again on stop or process exit.
// Node builtins only: this runs before anything is installed or built.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/** The bin folder of PostgreSQL 15, else of the newest version installed; undefined when none is. */
export function findPostgresBin() {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) return existsSync(path.join(fromEnv, 'initdb')) ? fromEnv : undefined;
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(path.join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  const chosen = versions.includes('15') ? '15' : versions[0];
  return chosen && path.join(PG_ROOT, chosen, 'bin');
}

export function hasPostgresBinaries() {
  return findPostgresBin() !== undefined;
}

const isRoot = process.getuid?.() === 0;

/** initdb and pg_ctl refuse to run as root: then they run as the `postgres` system user. */
function command(bin, tool, args) {
  const file = path.join(bin, tool);
  return isRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

async function run(bin, tool, args) {
  const [file, argv] = command(bin, tool, args);
  try {
    return await execFileAsync(file, argv, { encoding: 'utf8' });
  } catch (err) {
    const detail = `${err.stderr ?? ''}${err.stdout ?? ''}`.trim() || err.message;
    throw new Error(`${tool} failed: ${detail}`);
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const hasLocale = (name) => {
  try {
    return execFileSync('locale', ['-a'], { encoding: 'utf8' })
      .split('\n')
      .some((l) => l.toLowerCase().replace('-', '') === name);
  } catch {
    return false;
  }
};

/** Clusters of this process still running, stopped synchronously when the process ends. */
const running = new Set();

function stopAllSync() {
  for (const cluster of running) cluster.stopSync();
}

function installExitHandlers() {
  if (installExitHandlers.done) return;
  installExitHandlers.done = true;
  process.on('exit', stopAllSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const onSignal = () => {
      stopAllSync();
      // Nobody else handles the signal: end the way the signal would have.
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

/**
 * Starts a fresh PostgreSQL cluster (superuser `postgres`, trust authentication)
 * and resolves to its `url` and a `stop()` that shuts it down and deletes it (`halt()` and
 * `resume()` stop and start it again, keeping its data).
 * `durable: true` keeps fsync and full-page writes (crash tests); otherwise they
 * are off for speed. `port` defaults to a free one. `settings` adds or overrides
 * postgresql.conf entries, e.g. `{ shared_buffers: "'1GB'" }` (benchmarks).
 */
export async function startPostgres({ port, durable = false, settings: extra = {} } = {}) {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      `PostgreSQL server binaries not found in ${PG_ROOT}/*/bin (or PG_BIN). ` +
        'Install them, e.g. `apt-get install -y postgresql-15`.',
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-pg-'));
  const data = path.join(dir, 'data');
  const socketDir = path.join(dir, 'socket');
  mkdirSync(socketDir);
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  // If this process dies without a chance to clean up (SIGKILL), a detached
  // watchdog stops the cluster and removes its folder.
  const [ctl, ctlArgs] = command(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'immediate']);
  const watchdog = spawn(
    'sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; "$@" >/dev/null 2>&1; rm -rf "${dir}"`,
      'sh',
      ctl,
      ...ctlArgs,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  let stopped = false;
  /** False when stopped already; else marks the cluster stopped. */
  const claimStop = () => {
    if (stopped) return false;
    stopped = true;
    running.delete(cluster);
    watchdog.kill();
    return true;
  };
  const cluster = {
    stopSync() {
      if (!claimStop()) return;
      if (existsSync(path.join(data, 'postmaster.pid'))) {
        const [file, argv] = command(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
        spawnSync(file, argv, { stdio: 'ignore' });
      }
      rmSync(dir, { recursive: true, force: true });
    },
    async stop() {
      if (!claimStop()) return;
      try {
        if (existsSync(path.join(data, 'postmaster.pid'))) {
          await run(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  installExitHandlers();
  running.add(cluster);
  try {
    const locale = hasLocale('c.utf8') ? 'C.UTF-8' : 'C';
    await run(bin, 'initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      `--locale=${locale}`,
    ]);
    const settings = {
      listen_addresses: "'127.0.0.1'",
      unix_socket_directories: `'${socketDir}'`,
      max_connections: 200,
      // What the product makes its database's default at start (setDatabaseDefaults in
      // server/src/db/postgres.ts): test and benchmark databases are made otherwise.
      jit: 'off',
      ...(durable ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
      ...extra,
    };
    appendFileSync(
      path.join(data, 'postgresql.conf'),
      `\n# rodmenys throwaway cluster\n${Object.entries(settings)
        .map(([k, v]) => `${k} = ${v}`)
        .join('\n')}\n`,
    );
    // A free port can be taken between the probe and the start: try a few.
    for (let attempt = 1; ; attempt++) {
      const chosen = port ?? (await freePort());
      try {
        await run(bin, 'pg_ctl', ['start', '-w', '-D', data, '-l', path.join(dir, 'server.log'), '-o', `-p ${chosen}`]);
        return {
          url: `postgres://postgres@127.0.0.1:${chosen}/postgres`,
          port: chosen,
          dir,
          stop: cluster.stop,
          // The server stopped (fast shutdown: connections cut) and started again on the same port and data.
          halt: () => run(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']),
          resume: () =>
            run(bin, 'pg_ctl', ['start', '-w', '-D', data, '-l', path.join(dir, 'server.log'), '-o', `-p ${chosen}`]),
        };
      } catch (err) {
        if (port !== undefined || attempt >= 3) {
          const log = path.join(dir, 'server.log');
          const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-10).join('\n') : '';
          throw new Error(`${err.message}\n${tail}`);
        }
      }
    }
  } catch (err) {
    cluster.stopSync();
    throw err;
  }
}

/**
 * A streaming standby of a running cluster from `startPostgres` (hot standby, read
 * only): `pg_basebackup -R` copies the primary and writes the replication settings,
 * then it starts on its own free port. Resolves like `startPostgres`.
 */
export async function startStandby(primary, { settings: extra = {} } = {}) {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found');
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-pg-standby-'));
  const data = path.join(dir, 'data');
  const socketDir = path.join(dir, 'socket');
  mkdirSync(socketDir);
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  let stopped = false;
  const cluster = {
    stopSync() {
      if (stopped) return;
      stopped = true;
      running.delete(cluster);
      if (existsSync(path.join(data, 'postmaster.pid'))) {
        const [file, argv] = command(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
        spawnSync(file, argv, { stdio: 'ignore' });
      }
      rmSync(dir, { recursive: true, force: true });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      running.delete(cluster);
      try {
        if (existsSync(path.join(data, 'postmaster.pid')))
          await run(bin, 'pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  installExitHandlers();
  running.add(cluster);
  try {
    await run(bin, 'pg_basebackup', [
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
    ]);
    appendFileSync(
      path.join(data, 'postgresql.conf'),
      `\n# rodmenys throwaway standby\nunix_socket_directories = '${socketDir}'\nhot_standby = on\n${Object.entries(
        extra,
      )
        .map(([k, v]) => `${k} = ${v}`)
        .join('\n')}\n`,
    );
    const port = await freePort();
    await run(bin, 'pg_ctl', ['start', '-w', '-D', data, '-l', path.join(dir, 'server.log'), '-o', `-p ${port}`]);
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop: cluster.stop };
  } catch (err) {
    cluster.stopSync();
    throw err;
  }
}
