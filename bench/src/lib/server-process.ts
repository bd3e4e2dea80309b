import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** SIGTERM, and waits for the process to end (PGlite's data folder is free again then). */
  stop(): Promise<void>;
  /** With logLevel 'info': the lines the server has logged so far, per message (e.g. `request`). */
  logLines?(): Record<string, number>;
}

/**
 * The built server (`node server/dist/server.js`) in a process of its own, as in production: the
 * benchmark's HTTP clients do not share its event loop. `databaseUrl` undefined = embedded PGlite
 * in `dataDir` (seeded beforehand by the benchmark, then closed: one process holds it at a time).
 * BENCH_SERVER_NODE_ARGS passes options to its node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 * BENCH_SERVER_ROOT runs another build instead: a folder holding its `server/dist/server.js` (e.g.
 * the commit before a change, built in a copy), to measure both with the same benchmark.
 */
export function startServerProcess(options: {
  databaseUrl?: string;
  dataDir: string;
  /**
   * 'info': the production default, one log line per request (docs/operations.md, "The log"),
   * written to `<dataDir>.log` as a service's log goes to a file or the journal; the line count
   * is in `logLines()`. Default 'warn' (warnings and errors, passed to our stderr).
   */
  logLevel?: 'info' | 'warn';
}): Promise<ServerProcess> {
  if (options.logLevel === 'info') return startLoggingToFile(options);
  const { child, port } = spawnServer(options, 'warn', 'pipe');
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

/** startServerProcess with the server at `info`, its log in a file; ready when the file says so. */
function startLoggingToFile(options: { databaseUrl?: string; dataDir: string }): Promise<ServerProcess> {
  const logFile = `${options.dataDir}.log`;
  const fd = openSync(logFile, 'w');
  const { child, port } = spawnServer(options, 'info', fd);
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logLines = () => {
    const counts: Record<string, number> = {};
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      const msg = /"msg":"([^"]*)"/.exec(line)?.[1];
      if (msg !== undefined) counts[msg] = (counts[msg] ?? 0) + 1;
    }
    return counts;
  };
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (!readFileSync(logFile, 'utf8').includes('Rodmenys is running')) return;
      clearInterval(poll);
      resolve({
        child,
        origin: `http://127.0.0.1:${port}`,
        logLines,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
          rmSync(logFile, { force: true });
        },
      });
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`server exited (${code}): ${readFileSync(logFile, 'utf8')}`));
    });
  });
}

/** The built server's process on a random port, its stdout to `stdout`. */
function spawnServer(
  options: { databaseUrl?: string; dataDir: string },
  logLevel: 'info' | 'warn',
  stdout: 'pipe' | number,
): { child: ChildProcess; port: number } {
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
      LOG_LEVEL: logLevel,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  return { child, port };
}
