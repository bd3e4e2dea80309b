#!/usr/bin/env node
// The npm registry reachable here lacks some platform builds (e.g. @biomejs/cli-darwin-x64),
// so `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lock
// ("Missing: … from lock file"). This adds the missing optional platform entries, with the
// os/cpu/libc their names state; npm never fetches them on another platform.
// Usage: node scripts/lock-fill-platforms.mjs   (after `npm install` changed the lock)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const file = path.join(import.meta.dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const platform = /-(android|darwin|freebsd|linux|win32)-(arm64|x64|ia32|arm)(?:-(musl|gnu|msvc))?$/;
const added = [];
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const top = `node_modules/${dep}`;
    const m = dep.match(platform);
    if (!m || lock.packages[top] || lock.packages[`${key}/${top}`]) continue;
    const [, os, cpu, abi] = m;
    const libc = os === 'linux' ? [abi === 'musl' ? 'musl' : 'glibc'] : undefined;
    lock.packages[top] = {
      version,
      cpu: [cpu],
      dev: entry.dev,
      libc,
      license: entry.license,
      optional: true,
      os: [os],
    };
    added.push(`${dep}@${version}`);
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added to package-lock.json: ${added.join(', ')}` : 'package-lock.json is complete');
