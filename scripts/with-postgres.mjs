#!/usr/bin/env node
// Usage: node scripts/with-postgres.mjs <command …>
// Starts a throwaway PostgreSQL cluster, runs the command with DATABASE_URL and
// TEST_DATABASE_URL pointing at it, stops the cluster and exits with the command's code.
import { startPostgres } from './pg-cluster.mjs';
import { run } from './run-steps.mjs';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: with-postgres.mjs <command …>');
  process.exit(2);
}

const cluster = await startPostgres().catch((err) => {
  console.error(`with-postgres: ${err.message}`);
  process.exit(1);
});
// `run` passes signals on and lets the command end first; the cluster stops after it.
const code = await run(cmd, args, {
  cwd: process.cwd(),
  env: { ...process.env, DATABASE_URL: cluster.url, TEST_DATABASE_URL: cluster.url },
});
await cluster.stop();
process.exit(code);
