import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../test/db.js';
import { pgliteCopyIn } from './pglite.js';

const COPY = 'COPY copy_test (id, name, at) FROM STDIN WITH (FORMAT csv)';

const t = useDb();

beforeAll(async () => {
  await t.db.exec('CREATE TABLE copy_test (id int PRIMARY KEY, name text, at timestamptz)');
}, 60_000);

const rows = async () =>
  (await t.db.query<{ id: number; name: string | null }>('SELECT id, name FROM copy_test ORDER BY id')).rows;

describe(`Db.copyIn (${dbKind()})`, () => {
  it('loads CSV chunks from a plain iterable, quoting, NULLs and Lithuanian letters intact', async () => {
    await t.db.copyIn(COPY, ['1,"Žalgirio g., 12",2026-01-01T00:00:00Z\n', '2,,\n3,"UAB „Šilas“ ""A""",\n']);
    expect(await rows()).toEqual([
      { id: 1, name: 'Žalgirio g., 12' },
      { id: 2, name: null },
      { id: 3, name: 'UAB „Šilas“ "A"' },
    ]);
  });

  it('loads from an async generator', async () => {
    async function* gen() {
      for (let i = 10; i < 1010; i += 100) {
        yield Array.from({ length: 100 }, (_, k) => `${i + k},n${i + k},\n`).join('');
      }
    }
    await t.db.copyIn(COPY, gen());
    expect(await rows()).toHaveLength(1003);
  });

  it('loads all rows or none: a bad row rolls back the rows before it', async () => {
    await expect(t.db.copyIn(COPY, ['5000,ok,\n', '5001,ok,\n1,duplicate,\n'])).rejects.toThrow();
    expect(await rows()).toHaveLength(1003);
    // The session is usable afterwards.
    await t.db.copyIn(COPY, ['5000,ok,\n']);
    expect(await rows()).toHaveLength(1004);
  });

  it('takes only COPY … FROM STDIN', async () => {
    await expect(t.db.copyIn('DELETE FROM copy_test', [])).rejects.toThrow(/COPY/);
    await expect(t.db.copyIn("COPY copy_test FROM '/etc/passwd'", [])).rejects.toThrow(/COPY/);
    expect(await rows()).toHaveLength(1004);
  });

  it('runs inside a transaction and rolls back with it', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.copyIn(COPY, ['7000,in tx,\n']);
        const seen = await tx.query('SELECT 1 FROM copy_test WHERE id = 7000');
        expect(seen.rowCount).toBe(1);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await t.db.query('SELECT 1 FROM copy_test WHERE id = 7000')).rowCount).toBe(0);
  });
});

describe('pgliteCopyIn', () => {
  it('splits a long load into several COPYs at chunk boundaries', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = await PGlite.create();
    try {
      await pg.exec('CREATE TABLE copy_test (id int PRIMARY KEY, name text, at timestamptz)');
      const statements: string[] = [];
      const query = pg.query.bind(pg);
      pg.query = ((sql: string, params?: unknown[], options?: object) => {
        statements.push(sql);
        return query(sql, params, options);
      }) as typeof pg.query;
      const chunks = Array.from({ length: 50 }, (_, i) => `${i},${'x'.repeat(100)},\n`);
      await pgliteCopyIn(pg, COPY, chunks, 1000);
      expect(statements.length).toBeGreaterThanOrEqual(5);
      expect(statements.every((s) => s.includes("FROM '/dev/blob'"))).toBe(true);
      expect((await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM copy_test')).rows[0]?.n).toBe(50);
    } finally {
      await pg.close();
    }
  }, 60_000);
});
