import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server (`node dist/server.js`; the lanes that use it build first) on
 * 127.0.0.1, API only, without demo data, with `env` on top, and resolves once it says it
 * is running; rejects with everything it printed if it exits before. The durability and
 * cluster lanes start their servers with it.
 */
export function startBuiltServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: SERVER_DIR,
    env: { ...process.env, HOST: '127.0.0.1', DEMO_DATA: 'none', WEB_DIR: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Rodmenys is running')) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
}
