import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, TEST_TIME_ZONE, useDb } from '../test/db.js';
import { migrate } from './migrate.js';
import { DataDirLockedError, openPglite } from './pglite.js';
import { keepsTimeZone } from './postgres.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe(`Db layer on ${dbKind()}`, () => {
  const t = useDb();
  beforeAll(async () => {
    await t.db.exec('CREATE TABLE probe (id serial PRIMARY KEY, label text NOT NULL)');
  });

  const labels = async () =>
    (await t.db.query<{ label: string }>('SELECT label FROM probe ORDER BY id')).rows.map((r) => r.label);

  it('runs on the database the environment asks for', () => {
    expect(t.db.kind).toBe(dbKind());
  });

  it('runs every session in the provider zone, with no database default to lean on', async () => {
    // A test database has no ALTER DATABASE defaults: on a server the zone comes with each
    // connection (the TimeZone startup parameter), on PGlite from its one session.
    const zones = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.db.query<{ tz: string }>("SELECT current_setting('TimeZone') AS tz, pg_sleep(0.05)"),
      ),
    );
    expect(zones.map((r) => r.rows[0]!.tz)).toEqual(Array(4).fill(TEST_TIME_ZONE));
    expect(await keepsTimeZone(t.db, TEST_TIME_ZONE)).toBe(true);
    expect(await keepsTimeZone(t.db, 'UTC')).toBe(false);
  });

  it('applies every migration once; a second run does nothing', async () => {
    const files = readdirSync(path.join(import.meta.dirname, 'migrations')).filter((f) => f.endsWith('.sql'));
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM schema_migration ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(files.sort());
    expect(await migrate(t.db)).toEqual([]);
    expect((await t.db.query('SELECT name FROM schema_migration')).rowCount).toBe(files.length);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await t.db.query('DELETE FROM probe');
    const id = await t.db.transaction(async (tx) => {
      const r = await tx.query<{ id: number }>('INSERT INTO probe (label) VALUES ($1) RETURNING id', ['kept']);
      return r.rows[0]!.id;
    });
    expect(id).toBeGreaterThan(0);
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO probe (label) VALUES ($1)', ['lost']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    // A failing statement rolls back the statements before it, too.
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO probe (label) VALUES ($1)', ['lost too']);
        await tx.query('INSERT INTO probe (label) VALUES (NULL)');
      }),
    ).rejects.toThrow();
    expect(await labels()).toEqual(['kept']);
  });

  it('rolls back a transaction asked to, and still returns what it computed', async () => {
    await t.db.query('DELETE FROM probe');
    const seen = await t.db.transaction(
      async (tx) => {
        await tx.query('INSERT INTO probe (label) VALUES ($1), ($2)', ['dry 1', 'dry 2']);
        return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM probe')).rows[0]!.n;
      },
      { rollback: true },
    );
    expect(seen).toBe(2);
    expect(await labels()).toEqual([]);
    // The connection is usable afterwards, and an ordinary transaction still commits.
    await t.db.transaction((tx) => tx.query('INSERT INTO probe (label) VALUES ($1)', ['kept']), { rollback: false });
    expect(await labels()).toEqual(['kept']);
  });

  it('never commits the writes of a failing transaction that runs beside others', async () => {
    await t.db.query('DELETE FROM probe');
    const events: string[] = [];
    let seenInside = -1;
    const failing = t.db.transaction(async (tx) => {
      for (const n of [1, 2, 3]) {
        await tx.query('INSERT INTO probe (label) VALUES ($1)', [`a${n}`]);
        events.push('a');
        await tick();
      }
      throw new Error('a fails');
    });
    const passing = t.db.transaction(async (tx) => {
      for (const n of [1, 2, 3]) {
        await tx.query('INSERT INTO probe (label) VALUES ($1)', [`b${n}`]);
        events.push('b');
        await tick();
      }
    });
    // A plain query at the same time must not see (or commit) uncommitted rows.
    const outside = t.db
      .query<{ n: number }>("SELECT count(*)::int AS n FROM probe WHERE label LIKE 'a%'")
      .then((r) => {
        seenInside = r.rows[0]!.n;
      });
    const [a, b] = await Promise.allSettled([failing, passing, outside]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('fulfilled');
    expect(seenInside).toBe(0);
    expect(await labels()).toEqual(['b1', 'b2', 'b3']);
    if (t.db.kind === 'pglite') {
      // One shared session: transactions must run one after the other, never interleaved.
      expect(events.join('')).toMatch(/^(aaabbb|bbbaaa)$/);
    }
  });
});

describe('embedded database folder lock', () => {
  // One folder for these tests: creating an embedded database on disk is the slow part.
  let dir: string;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rodmenys-lock-'));
    await (await openPglite(dir, 'Europe/Vilnius')).close();
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second open of the same folder in this process', async () => {
    const first = await openPglite(dir, 'Europe/Vilnius');
    try {
      await expect(openPglite(dir, 'Europe/Vilnius')).rejects.toThrow(DataDirLockedError);
      expect((await first.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await first.close();
    }
    // Closed: the folder can be opened again.
    await (await openPglite(dir, 'Europe/Vilnius')).close();
  });

  it('refuses a folder another live process holds, and takes over once that process is dead', async () => {
    const pgliteModule = path.join(import.meta.dirname, 'pglite.ts');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openPglite } = await import(${JSON.stringify(pgliteModule)});
         await openPglite(${JSON.stringify(dir)}, 'Europe/Vilnius');
         console.log('ready');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    const [chunk] = await once(child.stdout!, 'data');
    expect(String(chunk)).toContain('ready');

    const refused = openPglite(dir, 'Europe/Vilnius');
    await expect(refused).rejects.toThrow(DataDirLockedError);
    await expect(refused).rejects.toThrow(`in use by another Rodmenys process (pid ${child.pid})`);

    // Killed without a chance to clean up: its lock file stays, naming a dead pid.
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(readdirSync(dir)).toContain('rodmenys.lock');
    const taken = await openPglite(dir, 'Europe/Vilnius');
    await taken.close();
  });
});
