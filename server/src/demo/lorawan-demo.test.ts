import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../test/db.js';
import { seedDemo } from './generate.js';

// The demo's building on LoRaWAN (docs/lorawan.md, "In the demo"): fed through the LNS endpoints' code.
describe(`the demo's LoRaWAN building (${dbKind()})`, () => {
  const t = useDb();
  const now = new Date('2026-11-20T12:00:00Z');
  let summary: Awaited<ReturnType<typeof seedDemo>>;
  beforeAll(async () => {
    summary = await seedDemo(t.db, { size: 'small', seed: 1, now });
  }, 300_000);

  it('has W1 water meters and a CMi heat meter with DevEUIs, their uplinks stored once each', async () => {
    expect(summary.lorawan).toBeDefined();
    const { rows } = await t.db.query<{ model: string; n: number; eui: number }>(
      `SELECT d.model, count(*)::int AS n, count(DISTINCT d.dev_eui)::int AS eui FROM device d
        WHERE d.dev_eui IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.map((r) => r.model)).toEqual(['CMi4111', 'Qalcosonic W1']);
    expect(rows.every((r) => r.n === r.eui)).toBe(true);
    const uplinks = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM lorawan_uplink');
    // Every W1 uplink was sent twice; each is kept once.
    expect(uplinks.rows[0]!.n).toBe(summary.lorawan!.uplinks);
    const connections = await t.db.query<{ kind: string }>('SELECT kind FROM lns_connection ORDER BY kind');
    expect(connections.rows.map((r) => r.kind)).toEqual(['chirpstack', 'tts']);
  });
});
