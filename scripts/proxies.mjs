// Throwaway HAProxy and PgBouncer for tests: Debian's binaries, a generated
// config in a temp folder, private ports on 127.0.0.1, stopped on stop() or when
// this process ends. Node builtins only, like pg-cluster.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './pg-cluster.mjs';

export const HAPROXY = process.env.HAPROXY_BIN || '/usr/sbin/haproxy';
export const PGBOUNCER = process.env.PGBOUNCER_BIN || '/usr/sbin/pgbouncer';

export const hasHaproxy = () => existsSync(HAPROXY);
export const hasPgbouncer = () => existsSync(PGBOUNCER);

const isRoot = process.getuid?.() === 0;

export { freePort };

const canConnect = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Runs `file args` until stop(); resolves once `port` accepts connections. A detached
 * watchdog ends the child if this process dies without cleaning up (SIGKILL).
 */
async function runDaemon(name, file, args, port, dir) {
  let output = '';
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const watchdog = spawn(
    'sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill ${child.pid} 2>/dev/null; rm -rf "${dir}"`,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', resolve)).then(() => (exited = true));
  const stop = async () => {
    watchdog.kill();
    if (!exited) {
      child.kill('SIGTERM');
      await exit;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', () => {
    if (!exited) child.kill('SIGKILL');
  });
  for (let waited = 0; !(await canConnect(port)); waited += 50) {
    if (exited || waited > 10_000) {
      await stop();
      throw new Error(`${name} did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { stop, output: () => output };
}

/**
 * HAProxy in HTTP mode on a free port, round robin over `servers` ({ name: port }),
 * adding X-Forwarded-For and naming the server that answered in `X-Served-By`; each instance
 * is checked every second with GET /api/ready (docs/operations.md).
 */
export async function startHaproxy(servers) {
  if (!hasHaproxy()) throw new Error(`HAProxy not found at ${HAPROXY}: apt-get install -y haproxy`);
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-haproxy-'));
  const port = await freePort();
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    `global
  maxconn 256
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
frontend app
  bind 127.0.0.1:${port}
  default_backend instances
backend instances
  balance roundrobin
  option forwardfor
  http-response set-header X-Served-By %s
  # An instance whose database does not answer (GET /api/ready: 503) gets no requests.
  option httpchk GET /api/ready
  http-check expect status 200
${Object.entries(servers)
  .map(([name, p]) => `  server ${name} 127.0.0.1:${p} check inter 1s fall 2 rise 1`)
  .join('\n')}
`,
  );
  execFileSync(HAPROXY, ['-c', '-q', '-f', config]);
  const daemon = await runDaemon('haproxy', HAPROXY, ['-db', '-f', config], port, dir);
  return { url: `http://127.0.0.1:${port}`, port, ...daemon };
}

/**
 * PgBouncer in transaction pooling mode on a free port in front of the PostgreSQL
 * server on `serverPort` (trust authentication, every database, `poolSize` server
 * connections per database and user); `admin` is its console's URL (SHOW POOLS).
 * `settings` adds or overrides [pgbouncer] entries. As root it runs as `postgres`.
 */
export async function startPgbouncer({ serverPort, poolSize = 3, settings = {} }) {
  if (!hasPgbouncer()) throw new Error(`PgBouncer not found at ${PGBOUNCER}: apt-get install -y pgbouncer`);
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-pgbouncer-'));
  const port = await freePort();
  const config = path.join(dir, 'pgbouncer.ini');
  const entries = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: path.join(dir, 'users.txt'),
    admin_users: 'postgres',
    pool_mode: 'transaction',
    default_pool_size: poolSize,
    max_client_conn: 200,
    logfile: path.join(dir, 'pgbouncer.log'),
    ...settings,
  };
  writeFileSync(path.join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    config,
    `[databases]\n* = host=127.0.0.1 port=${serverPort}\n[pgbouncer]\n${Object.entries(entries)
      .map(([k, v]) => `${k} = ${v}`)
      .join('\n')}\n`,
  );
  // PgBouncer refuses to run as root: then as the `postgres` system user, which must read its files.
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    for (const f of [dir, config, path.join(dir, 'users.txt')]) chownSync(f, uid, gid);
  }
  const daemon = await runDaemon('pgbouncer', PGBOUNCER, [...(isRoot ? ['-u', 'postgres'] : []), config], port, dir);
  const log = () => {
    try {
      return readFileSync(entries.logfile, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    admin: `postgres://postgres@127.0.0.1:${port}/pgbouncer`,
    port,
    log,
    ...daemon,
  };
}
