import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const SERVER_DIR = path.resolve(import.meta.dirname, '../../../server');

/**
 * The built server (`node dist/server.js`, built by the bench's pre-script) in a process of its
 * own, API only, without demo data unless `env` says otherwise, with `env` on top of this process's
 * environment; `nodeArgs` for its node (default: BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof").
 * Resolves once it says it is running, rejects with what it printed if it exits before.
 */
export function startBuiltServer(
  env: NodeJS.ProcessEnv,
  nodeArgs: readonly string[] = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, 'dist/server.js'], {
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
