#!/usr/bin/env node
// `npm test`: the whole suite in order, stopping at the first failing stage,
// always ending with a summary and the line `tests: N passed, M failed`.
// Workspaces are found, not listed: a new web/ or e2e/ with a `test` script joins by itself.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { recordBuild, sourcesFingerprint } from './build-state.mjs';
import { hasPostgresBinaries } from './pg-cluster.mjs';
import { HAPROXY, hasHaproxy, hasPgbouncer, PGBOUNCER } from './proxies.mjs';
import { install, isCI, needsInstall, root, run } from './run-steps.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const reports = mkdtempSync(path.join(tmpdir(), 'rodmenys-test-'));
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Workspaces with a `test` script, in the root package.json order (plus web/ and e2e/ when present). */
function testableWorkspaces() {
  const listed = readJson(path.join(root, 'package.json')).workspaces ?? [];
  return [...new Set([...listed, 'web', 'e2e'])]
    .filter((ws) => existsSync(path.join(root, ws, 'package.json')))
    .map((ws) => ({ ws, scripts: readJson(path.join(root, ws, 'package.json')).scripts ?? {} }))
    .filter(({ scripts }) => scripts.test);
}

/**
 * Arguments that make the test runner write a JSON report we can count, and
 * a function reading the counts back. Vitest and Playwright are understood;
 * other runners are run as they are and not counted.
 */
function reporting(name, script) {
  const file = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  if (/\bvitest\b/.test(script)) {
    return {
      args: ['--', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, '--passWithNoTests'],
      env: {},
      count: () => {
        const r = readJson(file);
        // Failed tests by name; a file that failed without a failed test (it did not load) counts as one.
        const unloaded = [];
        const failures = r.testResults.flatMap((f) => {
          const where = path.relative(root, f.name);
          const tests = f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${where} > ${a.fullName}`);
          if (tests.length || f.status !== 'failed') return tests;
          unloaded.push(where);
          return [`${where}: ${String(f.message).split('\n')[0]}`];
        });
        return {
          passed: r.numPassedTests,
          failed: r.numFailedTests + unloaded.length,
          skipped: r.numPendingTests + r.numTodoTests,
          failures,
        };
      },
    };
  }
  if (/\bplaywright\s+test\b/.test(script)) {
    return {
      args: ['--', '--reporter=list,json', '--pass-with-no-tests'],
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: file },
      count: () => {
        const { stats } = readJson(file);
        return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
      },
    };
  }
  return { args: [], env: {}, count: () => undefined };
}

/** A stage running `npm <args>` with test counting. */
function testStage(name, script, npmArgs, { env = {}, requires } = {}) {
  const rep = reporting(name, script);
  return {
    name,
    requires,
    async run() {
      const code = await run('npm', [...npmArgs, ...rep.args], { env: { ...process.env, ...env, ...rep.env } });
      let counts;
      try {
        counts = rep.count();
      } catch {
        counts = undefined; // no report: the runner died before writing one
      }
      return { code, counts };
    },
  };
}

const commandStage = (name, args) => ({ name, run: async () => ({ code: await run('npm', args) }) });

/** The build, recorded so that a later `npm start` of the same sources does not build again. */
const buildStage = () => ({
  name: 'build',
  async run() {
    const fingerprint = sourcesFingerprint();
    const code = await run('npm', ['run', 'build']);
    if (code === 0) recordBuild(fingerprint);
    return { code };
  },
});

/** The root scripts' own tests (node:test), counted from their TAP summary. */
const scriptsStage = () => ({
  name: 'scripts',
  async run() {
    const tap = path.join(reports, 'scripts.tap');
    const files = readdirSync(path.join(root, 'scripts'))
      .filter((f) => f.endsWith('.test.mjs'))
      .map((f) => path.join('scripts', f));
    const code = await run(process.execPath, [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ]);
    const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(readFileSync(tap, 'utf8'))?.[1] ?? 0);
    let counts;
    try {
      counts = {
        passed: count('pass'),
        failed: count('fail') + count('cancelled'),
        skipped: count('skipped') + count('todo'),
      };
    } catch {
      counts = undefined;
    }
    return { code, counts };
  },
});

/** What the cluster lane starts: PostgreSQL's server binaries, HAProxy, PgBouncer, Patroni, etcd, pgBackRest (Debian packages). */
function clusterNeeds() {
  const needs = [
    ['PostgreSQL server binaries', hasPostgresBinaries],
    [`HAProxy (${HAPROXY})`, hasHaproxy],
    [`PgBouncer (${PGBOUNCER})`, hasPgbouncer],
    ['Patroni (/usr/bin/patroni)', () => existsSync('/usr/bin/patroni')],
    ['etcd (/usr/bin/etcd)', () => existsSync('/usr/bin/etcd')],
    ['pgBackRest (/usr/bin/pgbackrest)', () => existsSync('/usr/bin/pgbackrest')],
  ];
  const missing = () => needs.filter(([, ok]) => !ok()).map(([what]) => what);
  return {
    get what() {
      return missing().join(', ');
    },
    ok: () => missing().length === 0,
  };
}

function stages() {
  const workspaces = testableWorkspaces();
  const unit = workspaces.filter(({ ws }) => ws !== 'e2e');
  const server = workspaces.find(({ ws }) => ws === 'server');
  const e2e = workspaces.find(({ ws }) => ws === 'e2e');
  // Unit stages run on embedded PGlite, whatever the caller's shell has set.
  const embedded = { DATABASE_URL: undefined, TEST_DATABASE_URL: undefined };
  return [
    ...(needsInstall() ? [{ name: 'install', run: async () => ({ code: await install() }) }] : []),
    buildStage(),
    commandStage('lint', ['run', 'lint']),
    commandStage('typecheck', ['run', 'typecheck']),
    scriptsStage(),
    ...unit.map(({ ws, scripts }) =>
      testStage(ws === 'server' ? 'server (PGlite)' : ws, scripts.test, ['test', '-w', ws], { env: embedded }),
    ),
    ...(server?.scripts['test:pg']
      ? [
          testStage('server (PostgreSQL)', server.scripts['test:pg'], ['run', 'test:pg', '-w', 'server'], {
            requires: { what: 'PostgreSQL server binaries', ok: hasPostgresBinaries },
          }),
        ]
      : []),
    // Drives the built server against a durable PostgreSQL cluster of its own: once, not per engine.
    ...(server?.scripts['test:durable']
      ? [
          testStage('server (durability)', server.scripts['test:durable'], ['run', 'test:durable', '-w', 'server'], {
            requires: { what: 'PostgreSQL server binaries', ok: hasPostgresBinaries },
          }),
        ]
      : []),
    // Real primaries with streaming standbys, PgBouncer and HAProxy in front of two built servers,
    // started by the tests themselves: once, not per engine.
    ...(server?.scripts['test:cluster']
      ? [
          testStage('server (cluster)', server.scripts['test:cluster'], ['run', 'test:cluster', '-w', 'server'], {
            requires: clusterNeeds(),
          }),
        ]
      : []),
    // Once per run, not per engine: the built server on a fresh embedded database, fed the inputs
    // that once crashed or stalled it (server/src/crash-probe.slow.test.ts). Never skipped.
    ...(server
      ? [
          testStage('crash probe', server.scripts['test:crash'] ?? '', ['run', 'test:crash', '-w', 'server'], {
            env: embedded,
          }),
        ]
      : []),
    ...(e2e
      ? [
          testStage('e2e', e2e.scripts.test, ['test', '-w', 'e2e'], {
            requires: { what: `Chromium (${CHROMIUM})`, ok: () => existsSync(CHROMIUM) },
          }),
        ]
      : []),
  ];
}

const yellow = (s) => (process.stdout.isTTY ? `\x1b[33m${s}\x1b[0m` : s);
const results = [];
let failed = false;
for (const stage of stages()) {
  if (failed || run.interrupted) {
    results.push({ name: stage.name, status: 'not run' });
    continue;
  }
  if (stage.requires && !stage.requires.ok()) {
    const note = `${stage.requires.what} missing`;
    if (isCI) {
      console.error(`\n✘ ${stage.name}: ${note}; required in CI`);
      results.push({ name: stage.name, status: 'failed', note: `${note} (required in CI)` });
      failed = true;
    } else {
      console.warn(yellow(`\n!!! WARNING: ${note}: stage "${stage.name}" SKIPPED (it is required in CI) !!!\n`));
      results.push({ name: stage.name, status: 'SKIPPED', note });
    }
    continue;
  }
  console.log(`\n▶ ${stage.name}`);
  const started = performance.now();
  const { code, counts } = await stage.run();
  const seconds = (performance.now() - started) / 1000;
  const ok = code === 0;
  failed ||= !ok;
  results.push({ name: stage.name, status: ok ? 'passed' : 'failed', seconds, counts, code });
}
rmSync(reports, { recursive: true, force: true });

const total = { passed: 0, failed: 0 };
const width = Math.max(...results.map((r) => r.name.length));
console.log('\n── summary ──');
for (const r of results) {
  const mark = { passed: '✔', failed: '✘', SKIPPED: '!', 'not run': '-' }[r.status];
  const parts = r.status === 'passed' ? [] : [r.status];
  if (r.counts) {
    total.passed += r.counts.passed;
    total.failed += r.counts.failed;
    parts.push(
      `${r.counts.passed} passed, ${r.counts.failed} failed${r.counts.skipped ? `, ${r.counts.skipped} skipped` : ''}`,
    );
  }
  if (r.seconds !== undefined) parts.push(`${r.seconds.toFixed(1)} s`);
  if (r.status === 'failed' && r.code !== undefined) parts.push(`exit code ${r.code}`);
  if (r.note) parts.push(r.note);
  console.log(`${mark} ${r.name.padEnd(width)}  ${parts.join(' · ')}`);
  const failures = r.counts?.failures ?? [];
  for (const f of failures.slice(0, 10)) console.log(`    ✘ ${f}`);
  if (failures.length > 10) console.log(`    … and ${failures.length - 10} more`);
}
// Said, not silently left out: the lane that needs wmbusmeters built from source (docs/collectors.md).
console.log('- wmbusmeters lane: opt-in, not part of npm test (npm run test:wmbusmeters -w server)');
if (run.interrupted) console.log(`interrupted by ${run.interrupted}`);
console.log(`tests: ${total.passed} passed, ${total.failed} failed`);
process.exit(failed || run.interrupted ? 1 : 0);
