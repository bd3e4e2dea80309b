import { describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { STORE_UPLINKS_STATEMENT } from './store-uplinks.js';

// docs/lorawan.md, "How uplinks are written": a batch runs the statement the server builds
// (the one reading writer's, services/readings/store-readings.ts) through the function of
// migration 381, whose plan the database keeps. The function must run that statement word for
// word: when the reading writer changes, this fails until a migration replaces the function.

const words = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe(`lorawan_store_uplinks runs the server's statement (${dbKind()})`, () => {
  const t = useDb();

  it('has the statement STORE_UPLINKS_STATEMENT builds as its body, and keeps one plan per session', async () => {
    const { rows } = await t.db.query<{ src: string; config: string[] | null }>(
      `SELECT prosrc AS src, proconfig AS config FROM pg_proc WHERE proname = 'lorawan_store_uplinks'`,
    );
    expect(rows).toHaveLength(1);
    const body = words(rows[0]!.src);
    expect(body).toBe(words(`#variable_conflict use_column BEGIN RETURN QUERY ${STORE_UPLINKS_STATEMENT}; END`));
    expect(rows[0]!.config).toEqual(['plan_cache_mode=force_generic_plan']);
  });

  it('lorawan_devices keeps one plan per session too', async () => {
    const { rows } = await t.db.query<{ config: string[] | null }>(
      `SELECT proconfig AS config FROM pg_proc WHERE proname = 'lorawan_devices'`,
    );
    expect(rows).toEqual([{ config: ['plan_cache_mode=force_generic_plan'] }]);
  });
});
