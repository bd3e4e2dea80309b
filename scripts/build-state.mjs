// Whether the built product is up to date with its sources, and a lock so that two
// `npm start`s of one checkout never install or build over each other (Node builtins only:
// this runs before any install).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './run-steps.mjs';

/** What a build reads: every file of these, but generated and installed folders. */
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.base.json', 'contract', 'server', 'web'];
const SKIP = new Set(['node_modules', 'dist', '.artifacts', 'test-results', '.vite']);
/** What a build writes; all must exist for the build to count as done. */
const OUTPUTS = ['contract/dist', 'server/dist/server.js', 'web/dist/index.html'];

const stateDir = (dir) => path.join(dir, 'node_modules', '.cache', 'rodmenys');
const stampFile = (dir) => path.join(stateDir(dir), 'build-stamp');
const lockDir = (dir) => path.join(dir, '.start.lock');

function files(dir, entry) {
  const full = path.join(dir, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .filter((name) => !SKIP.has(name) && !name.endsWith('.tsbuildinfo'))
    .sort()
    .flatMap((name) => files(dir, path.join(entry, name)));
}

/** A hash of every build input's path and content. */
export function sourcesFingerprint(dir = root) {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((entry) => files(dir, entry))) {
    hash.update(file);
    hash.update('\0');
    hash.update(readFileSync(path.join(dir, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True when the last successful build was made from exactly these sources and its output is all there. */
export function isBuildCurrent(fingerprint, dir = root) {
  if (!OUTPUTS.every((file) => existsSync(path.join(dir, file)))) return false;
  return existsSync(stampFile(dir)) && readFileSync(stampFile(dir), 'utf8').trim() === fingerprint;
}

/** Notes that the output now matches these sources. */
export function recordBuild(fingerprint, dir = root) {
  mkdirSync(stateDir(dir), { recursive: true });
  writeFileSync(stampFile(dir), `${fingerprint}\n`);
}

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/**
 * Takes the checkout's start lock (a directory: its creation is atomic), waiting while another
 * live process holds it; a lock left by a process that died is taken over. Returns the release.
 */
export async function lockCheckout({ onWait = () => {}, dir = root } = {}) {
  const lock = lockDir(dir);
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      const release = () => rmSync(lock, { recursive: true, force: true });
      process.once('exit', release);
      return release;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      // the holder has made the folder but not yet written its pid
    }
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if ((Number.isInteger(holder) && !isAlive(holder)) || (!Number.isInteger(holder) && age > 10_000)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!told) onWait(holder);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
