// Helpers shared by start.mjs and test.mjs (Node builtins only: they run before any install).
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const isCI = ['true', '1'].includes(String(process.env.CI).toLowerCase());

/** The child running now, to pass signals on to. */
let current;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    run.interrupted = signal;
    current?.kill(signal);
  });
}

/** Runs a command in the repository with inherited stdio; resolves to its exit code (128+n when killed by a signal). */
export function run(cmd, args, { env = process.env, cwd = root } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: 'inherit' });
    current = child;
    child.on('error', (err) => {
      console.error(`cannot run ${cmd}: ${err.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => {
      current = undefined;
      resolve(signal ? 128 + constants.signals[signal] : (code ?? 1));
    });
  });
}

/** node_modules is missing or older than package-lock.json. */
export function needsInstall() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!existsSync(marker)) return true;
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs;
}

/** `npm ci` in CI, `npm install` elsewhere. */
export const install = () => run('npm', [isCI ? 'ci' : 'install']);
