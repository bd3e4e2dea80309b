#!/usr/bin/env node
// `npm start`: install when needed, build when the sources changed since the last build, then run
// the server (environment passed through). Two starts of one checkout take turns for the install
// and build (a lock), so they never write the same files at once.
import { isBuildCurrent, lockCheckout, recordBuild, sourcesFingerprint } from './build-state.mjs';
import { install, needsInstall, run } from './run-steps.mjs';

function check(code, what) {
  if (code === 0) return;
  console.error(`\n${what} failed (exit code ${code})`);
  process.exit(code);
}

const release = await lockCheckout({
  onWait: (pid) => console.log(`another start of this checkout (pid ${pid}) is installing or building; waiting`),
});
if (needsInstall()) check(await install(), 'npm install');
const fingerprint = sourcesFingerprint();
if (isBuildCurrent(fingerprint)) {
  console.log('build is up to date with the sources; not rebuilding');
} else {
  check(await run('npm', ['run', 'build']), 'npm run build');
  recordBuild(fingerprint);
}
release();
process.exit(await run(process.execPath, ['server/dist/server.js']));
