import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.js';
import { useDb } from '../../test/db.js';
import { makeBuilding } from '../../test/factories.js';

/*
 * The digest of each frozen billing export (docs/integration.md, "Versions"): always the SHA-256 of the
 * text stored beside it, whoever writes the text, and filled by its migration on a database that has
 * frozen exports already. Publishing again compares by it (routes/integrations.test.ts: an export that
 * would differ still makes a new version).
 */

const t = useDb();
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function digests() {
  const { rows } = await t.db.query<{ id: number; rows: string; digest: string | null }>(
    `SELECT publication_id AS id, rows, encode(rows_sha256, 'hex') AS digest FROM billing_snapshot ORDER BY 1`,
  );
  return rows;
}

describe('billing_snapshot.rows_sha256', () => {
  let ids: number[] = [];

  it('is the SHA-256 of the text as Node writes it, on insert and on every rewrite of the text', async () => {
    const building = await makeBuilding(t.db);
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO statement_publication (month, building_id, version) VALUES ('2026-10-01', $1, 1), ('2026-10-01', $1, 2)
       RETURNING id`,
      [building.id],
    );
    ids = rows.map((r) => r.id);
    // Non-ASCII text as the export holds it (names, units), and an empty export.
    const texts = [JSON.stringify([{ Client: 'Žemaitė Ąžuolienė', Unit: 'm³', Value: 1.5 }]), '[]'];
    await t.db.query(
      'INSERT INTO billing_snapshot (publication_id, rows, row_count) SELECT * FROM unnest($1::int[], $2::text[], $3::int[])',
      [ids, texts, [1, 0]],
    );
    expect((await digests()).map((d) => d.digest)).toEqual(texts.map(sha));
    // A scrub of personal data rewrites the text: the digest follows.
    await t.db.query(
      `UPDATE billing_snapshot SET rows = replace(rows, 'Žemaitė Ąžuolienė', '***') WHERE publication_id = $1`,
      [ids[0]],
    );
    for (const d of await digests()) expect(d.digest).toBe(sha(d.rows));
    // A digest written by hand is not kept either.
    await t.db.query(`UPDATE billing_snapshot SET rows_sha256 = '\\x00' WHERE publication_id = $1`, [ids[1]]);
    for (const d of await digests()) expect(d.digest).toBe(sha(d.rows));
  });

  it('is filled by its migration on a database that has frozen exports already', async () => {
    await t.db.exec(`DROP TRIGGER billing_snapshot_digest ON billing_snapshot; DROP FUNCTION billing_snapshot_digest();
      ALTER TABLE billing_snapshot DROP COLUMN rows_sha256;
      DELETE FROM schema_migration WHERE name = '376_billing_snapshot_hash.sql';`);
    await t.db.query(`UPDATE billing_snapshot SET rows = '[{"Client":"Ąčę"}]' WHERE publication_id = $1`, [ids[1]]);
    expect(await migrate(t.db)).toEqual(['376_billing_snapshot_hash.sql']);
    const filled = await digests();
    expect(filled).toHaveLength(2);
    for (const d of filled) expect(d.digest).toBe(sha(d.rows));
  });
});
