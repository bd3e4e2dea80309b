import type { Queryable } from '../../../db/db.js';
import { TEXTS_SQL } from './sql.js';

/**
 * Each device's kept ReadingRow text for GetDevicesData: `{"DeviceId":…` up to
 * `"Replaces":…`, without the closing brace (the `kept` fields of fields.ts;
 * LastSeen and the readings follow, computed on every request). Those ~30
 * fields (names, address, codes) change only with the master data, yet writing
 * them cost PostgreSQL more than the readings themselves and moved ~4 MB of
 * text per 5,000 devices to Node.
 *
 * The texts are kept under the master-data version (`master_change`, migration
 * 040): the request's first query reads the version in the same snapshot as the
 * selection, and a version other than the kept one drops every text. A text is
 * kept only if the query that wrote it saw the request's version, so a change
 * committed in between is never kept as current. Only the master data are kept:
 * the readings, flags, LastSeen and set-day values are read on every request.
 */
export class DeviceTextCache {
  #version: string | null = null;
  readonly #texts = new Map<number, Buffer>();

  /** The texts of `ids` (in that order) as of `version`, reading those not kept. */
  async texts(db: Queryable, version: string, ids: readonly number[]): Promise<Buffer[]> {
    if (version !== this.#version) {
      this.#texts.clear();
      this.#version = version;
    }
    const missing = ids.filter((id) => !this.#texts.has(id));
    const fresh = new Map<number, Buffer>();
    if (missing.length > 0) {
      const { rows } = await db.query<{ version: string; id: number; text: string }>(TEXTS_SQL, [missing]);
      if (this.#texts.size + rows.length > MAX_TEXTS) this.#texts.clear();
      for (const row of rows) {
        const text = Buffer.from(asciiJson(row.text), 'latin1');
        fresh.set(row.id, text);
        if (row.version === this.#version) this.#texts.set(row.id, text);
      }
    }
    return ids.map((id) => {
      const text = fresh.get(id) ?? this.#texts.get(id);
      if (!text) throw new Error(`device ${id} not found`);
      return text;
    });
  }

  get size(): number {
    return this.#texts.size;
  }
}

/**
 * JSON text with every non-ASCII character as a \u escape (as Python's json.dumps
 * does by default): the same JSON, about 1 % longer here, but an all-ASCII body
 * decodes about three times faster in the client (docs/benchmarks.md).
 */
export const asciiJson = (json: string) =>
  json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** At ~0.9 KB each, about 90 MB; beyond it the texts are dropped and read again. */
const MAX_TEXTS = 100_000;
