import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// deploy/rodmenys.service and deploy/rodmenys.env, as docs/operations.md installs them.
const ROOT = path.resolve(import.meta.dirname, '../..');
const INSTALLED = '/opt/rodmenys';
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const unit = read('deploy/rodmenys.service');

/** `Key=value` lines of a unit or env file (the last one wins, as in systemd). */
function settings(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) found.set(m[1]!, m[2]!);
  }
  return found;
}

/** The variables the server reads: `env.NAME`, `process.env.NAME`, `intVar(env, 'NAME'` outside tests. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) {
        if (entry !== 'test') walk(file);
      } else if (entry.endsWith('.ts') && !entry.endsWith('.test.ts')) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/\b(?:process\.)?env\.([A-Z][A-Z0-9_]+)|intVar\(env, '([A-Z][A-Z0-9_]+)'/g)) {
          names.add((m[1] ?? m[2])!);
        }
      }
    }
  };
  walk(path.join(ROOT, 'server/src'));
  return names;
}

describe('deploy/rodmenys.service', () => {
  const service = settings(unit);

  it('restarts the server when it dies, as a dedicated user, with the settings file', () => {
    expect(service.get('Restart')).toBe('on-failure');
    expect(service.get('User')).toBe('rodmenys');
    expect(service.get('EnvironmentFile')).toBe('/etc/rodmenys/rodmenys.env');
    expect(service.get('StateDirectory')).toBe('rodmenys');
    expect(settings(read('deploy/rodmenys.env')).get('DATA_DIR')).toBe('/var/lib/rodmenys');
  });

  it("starts what `npm start` starts: node and the server's built entry point", () => {
    const [node, script, ...rest] = service.get('ExecStart')!.split(' ');
    expect(node).toBe('/usr/bin/node');
    expect(rest).toEqual([]);
    const pkg = JSON.parse(read('server/package.json')) as { main: string; scripts: { start: string } };
    expect(script).toBe(`${INSTALLED}/server/${pkg.main}`);
    expect(pkg.scripts.start).toBe(`node ${pkg.main}`);
    // The entry point is built from src/server.ts (and exists once built).
    expect(existsSync(path.join(ROOT, 'server/src/server.ts'))).toBe(true);
    if (existsSync(path.join(ROOT, 'server/dist'))) expect(existsSync(path.join(ROOT, 'server', pkg.main))).toBe(true);
  });

  it('lists in deploy/rodmenys.env and .env.example exactly the variables the server reads', () => {
    const read_ = [...variablesRead()].sort();
    expect(read_).toContain('DATABASE_URL');
    expect([...settings(read('deploy/rodmenys.env')).keys()].sort()).toEqual(read_);
    expect([...settings(read('.env.example')).keys()].sort()).toEqual(read_);
  });

  // systemd's own check of the unit (Debian package systemd; .ci/run installs it), here with this
  // checkout and this node in place of /opt/rodmenys and /usr/bin/node.
  it('passes systemd-analyze verify', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-unit-'));
    try {
      const file = path.join(dir, 'rodmenys.service');
      writeFileSync(
        file,
        unit
          .replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `)
          .replaceAll(INSTALLED, ROOT)
          .replace(
            'EnvironmentFile=/etc/rodmenys/rodmenys.env',
            `EnvironmentFile=${path.join(ROOT, 'deploy/rodmenys.env')}`,
          ),
      );
      const result = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
      // Unknown keys and bad values are only warnings: any output fails too.
      expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
        status: 0,
        output: '',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is what docs/operations.md installs', () => {
    const doc = read('docs/operations.md');
    expect(doc).toContain('deploy/rodmenys.service');
    expect(doc).toContain('deploy/rodmenys.env');
    expect(readdirSync(path.join(ROOT, 'deploy')).sort()).toEqual(['failover', 'rodmenys.env', 'rodmenys.service']);
    // The failover profile (docs/operations.md, "Failover"): every file is one the runbook installs.
    const failover = readdirSync(path.join(ROOT, 'deploy', 'failover')).sort();
    expect(failover).toEqual(['etcd.env', 'haproxy.cfg', 'patroni.yml', 'pgbackrest.conf']);
    for (const file of failover) expect(doc).toContain(`deploy/failover/${file}`);
  });
});
