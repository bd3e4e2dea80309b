#!/usr/bin/env node
// Usage: node scripts/with-postgres.mjs <command …>
// Starts a throwaway PostgreSQL cluster, runs the command with DATABASE_URL and
// TEST_DATABASE_URL pointing at it, stops the cluster and exits with the command's code.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { startPostgres } from './pg-cluster.mjs';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: with-postgres.mjs <command …>');
  process.exit(2);
}

const cluster = await startPostgres().catch((err) => {
  console.error(`with-postgres: ${err.message}`);
  process.exit(1);
});
const child = spawn(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: cluster.url, TEST_DATABASE_URL: cluster.url },
});
// Pass signals on and let the command end first; the cluster stops after it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));

const code = await new Promise((resolve) => {
  child.on('error', (err) => {
    console.error(`with-postgres: cannot run ${cmd}: ${err.message}`);
    resolve(127);
  });
  child.on('exit', (status, signal) => resolve(signal ? 128 + constants.signals[signal] : (status ?? 1)));
});
await cluster.stop();
process.exit(code);
