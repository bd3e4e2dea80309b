// `npm start`'s build check and checkout lock (node:test; run by `npm test` as the "scripts" stage).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { isBuildCurrent, lockCheckout, recordBuild, sourcesFingerprint } from './build-state.mjs';

const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function checkout() {
  const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-start-'));
  made.push(dir);
  const write = (file, text) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write('package.json', '{}');
  write('contract/src/a.ts', 'export const a = 1;');
  write('server/src/b.ts', 'export const b = 1;');
  write('web/src/c.tsx', 'export const c = 1;');
  return { dir, write };
}

describe('npm start: build only when the sources changed', () => {
  it('is current after a recorded build and stale after any source edit', () => {
    const { dir, write } = checkout();
    const before = sourcesFingerprint(dir);
    assert.equal(isBuildCurrent(before, dir), false, 'never built');
    for (const out of ['contract/dist/index.js', 'server/dist/server.js', 'web/dist/index.html']) write(out, 'x');
    recordBuild(before, dir);
    assert.equal(isBuildCurrent(sourcesFingerprint(dir), dir), true);

    write('server/dist/server.js', 'rebuilt output'); // output is not an input
    write('server/tsconfig.tsbuildinfo', '{}');
    assert.equal(isBuildCurrent(sourcesFingerprint(dir), dir), true);

    write('web/src/c.tsx', 'export const c = 2;');
    assert.equal(isBuildCurrent(sourcesFingerprint(dir), dir), false, 'a changed source');
    write('web/src/c.tsx', 'export const c = 1;');
    assert.equal(isBuildCurrent(sourcesFingerprint(dir), dir), true, 'same content again');

    write('contract/src/new.ts', '');
    assert.equal(isBuildCurrent(sourcesFingerprint(dir), dir), false, 'a new source file');
  });

  it('is not current when an output is missing', () => {
    const { dir, write } = checkout();
    for (const out of ['contract/dist/index.js', 'server/dist/server.js']) write(out, 'x');
    const fingerprint = sourcesFingerprint(dir);
    recordBuild(fingerprint, dir);
    assert.equal(isBuildCurrent(fingerprint, dir), false);
  });
});

/** A process that takes the lock, holds it `ms`, and prints when it held it. */
function holder(dir, ms) {
  const code = `
    import { lockCheckout } from ${JSON.stringify(path.join(import.meta.dirname, 'build-state.mjs'))};
    const release = await lockCheckout({ dir: ${JSON.stringify(dir)} });
    const start = Date.now();
    await new Promise((r) => setTimeout(r, ${ms}));
    console.log(JSON.stringify({ start, end: Date.now() }));
    release();
    process.exit(0);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (status) => (status === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${status}`))));
  });
}

describe('npm start: two starts of one checkout take turns', () => {
  it('never holds the lock in two processes at once', async () => {
    const { dir } = checkout();
    const spans = await Promise.all([holder(dir, 400), holder(dir, 400), holder(dir, 400)]);
    spans.sort((a, b) => a.start - b.start);
    for (let i = 1; i < spans.length; i++) {
      assert.ok(spans[i].start >= spans[i - 1].end, `overlap: ${JSON.stringify(spans)}`);
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const { dir } = checkout();
    mkdirSync(path.join(dir, '.start.lock'));
    // A pid no process has: the highest possible one.
    writeFileSync(path.join(dir, '.start.lock', 'pid'), String(2 ** 22 + 1));
    const release = await lockCheckout({ dir });
    assert.equal(readFileSync(path.join(dir, '.start.lock', 'pid'), 'utf8'), String(process.pid));
    release();
  });
});
