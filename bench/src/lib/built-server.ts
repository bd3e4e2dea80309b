import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The built server (`node server/dist/server.js`, from the repository's root) with `env` as its whole
 * environment and `nodeArgs` for its node; resolves once it says it is running, rejects with what it
 * printed if it exits before. Its stderr goes to the benchmark's.
 */
export function startBuiltServer(env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, 'server/dist/server.js'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Rodmenys is running')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}
