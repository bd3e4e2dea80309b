#!/usr/bin/env node
// `npm start`: install when needed, build, then run the server (environment passed through).
import { install, needsInstall, run } from './run-steps.mjs';

function check(code, what) {
  if (code === 0) return;
  console.error(`\n${what} failed (exit code ${code})`);
  process.exit(code);
}

if (needsInstall()) check(await install(), 'npm install');
check(await run('npm', ['run', 'build']), 'npm run build');
process.exit(await run(process.execPath, ['server/dist/server.js']));
