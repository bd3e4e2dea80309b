#!/usr/bin/env node
// The real wmbusmeters for the opt-in collectors lane (`npm run test:wmbusmeters -w server`,
// docs/collectors.md "Checked with the real wmbusmeters"): the binary named by WMBUSMETERS, else
// one built from source once and kept in a cache (~/.cache/rodmenys, or WMBUSMETERS_CACHE).
// The source is WMBUSMETERS_SRC (a checkout), else a clone of the project at the commit the
// shared telegram samples come from. Building takes about ten minutes on two cores and needs
// Debian's librtlsdr-dev, libusb-1.0-0-dev and libxml2-dev: not for every CI run.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WMBUSMETERS_REPO = 'https://github.com/wmbusmeters/wmbusmeters.git';
/** The commit of wmbusmeters' driver test vectors that the shared telegram samples were printed by. */
export const WMBUSMETERS_COMMIT = '4dedd717d3af8043ffa3e94f69476656ccd17bc2';
const BUILD_PACKAGES = [
  ['librtlsdr', 'librtlsdr-dev'],
  ['libusb-1.0', 'libusb-1.0-0-dev'],
  ['libxml-2.0', 'libxml2-dev'],
];

const cacheDir = () => process.env.WMBUSMETERS_CACHE || path.join(homedir(), '.cache', 'rodmenys');

/** Where the binary is (or will be once built). */
export function wmbusmetersPath() {
  return (
    process.env.WMBUSMETERS || path.join(cacheDir(), `wmbusmeters-${WMBUSMETERS_COMMIT.slice(0, 12)}`, 'wmbusmeters')
  );
}

const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });

/** The binary, built first when it is not there yet. Throws, saying what is missing, when it cannot be. */
export function ensureWmbusmeters() {
  const binary = wmbusmetersPath();
  if (existsSync(binary)) return binary;
  if (process.env.WMBUSMETERS) throw new Error(`WMBUSMETERS=${binary}: no such file`);
  const missing = BUILD_PACKAGES.filter(([module]) => {
    try {
      execFileSync('pkg-config', ['--exists', module]);
      return false;
    } catch {
      return true;
    }
  }).map(([, pkg]) => pkg);
  if (missing.length) throw new Error(`building wmbusmeters needs: apt-get install -y ${missing.join(' ')}`);
  mkdirSync(cacheDir(), { recursive: true });
  const work = mkdtempSync(path.join(cacheDir(), 'wmbusmeters-build-'));
  try {
    const src = path.join(work, 'src');
    if (process.env.WMBUSMETERS_SRC) cpSync(process.env.WMBUSMETERS_SRC, src, { recursive: true });
    else {
      sh('git', ['init', '-q', src]);
      sh('git', ['fetch', '-q', '--depth', '1', WMBUSMETERS_REPO, WMBUSMETERS_COMMIT], src);
      sh('git', ['checkout', '-q', 'FETCH_HEAD'], src);
    }
    console.log(`building wmbusmeters in ${src} (about ten minutes on two cores)`);
    sh('./configure', [], src);
    sh('make', [`-j${availableParallelism()}`], src);
    mkdirSync(path.dirname(binary), { recursive: true });
    renameSync(path.join(src, 'build', 'wmbusmeters'), binary);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const binary = ensureWmbusmeters();
    console.log(`wmbusmeters: ${binary}`);
    console.log(execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim());
  } catch (e) {
    console.error(`wmbusmeters: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
