import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** SIGTERM, and waits for the process to end (PGlite's data folder is free again then). */
  stop(): Promise<void>;
}

/**
 * The built server (`node server/dist/server.js`) in a process of its own, as in production: the
 * benchmark's HTTP clients do not share its event loop. `databaseUrl` undefined = embedded PGlite
 * in `dataDir` (seeded beforehand by the benchmark, then closed: one process holds it at a time).
 * BENCH_SERVER_NODE_ARGS passes options to its node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 * BENCH_SERVER_ROOT runs another build instead: a folder holding its `server/dist/server.js` (e.g.
 * the commit before a change, built in a copy), to measure both with the same benchmark.
 */
export function startServerProcess(options: { databaseUrl?: string; dataDir: string }): Promise<ServerProcess> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, 'server/dist/server.js'], {
    cwd: process.env.BENCH_SERVER_ROOT || ROOT,
    env: {
      ...process.env,
      // Empty = embedded PGlite (env.ts reads an empty value as unset).
      DATABASE_URL: options.databaseUrl ?? '',
      PORT: String(port),
      DATA_DIR: options.dataDir,
      DEMO_DATA: 'none',
      WEB_DIR: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    // After the start, the server's log (LOG_LEVEL warn: its warnings and errors) goes to our stderr.
    let ready = false;
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (!ready && out.includes('Rodmenys is running')) {
        ready = true;
        resolve({
          child,
          origin: `http://127.0.0.1:${port}`,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      } else if (ready) process.stderr.write(c);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}
