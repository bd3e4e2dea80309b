import type { Db } from './db.js';

/**
 * Read-only work on a streaming standby (`DATABASE_READ_URL`, docs/scaling.md).
 * A standby is a moment behind its primary; a user must still see their own
 * change at once. So after a signed-in user's successful change the primary's
 * WAL position is noted (`user_write_lsn`, on the primary: every instance sees
 * it), and that user's reads go to the standby only once it has replayed past
 * that position; until then, and whenever the standby cannot answer, the
 * primary answers. Sign-in, sessions and every write always use the primary.
 */
export interface ReadRouting {
  /** Whether a standby is configured at all. */
  readonly replica: boolean;
  /** The standby itself, when configured (GET /api/ready asks it). */
  readonly standby: Db | undefined;
  /** The database to answer a read-only request of `userId` from. */
  reader(userId: number | undefined): Promise<Db>;
  /** After `userId`'s successful change: their reads wait for the standby to reach this point. */
  noteWrite(userId: number): Promise<void>;
}

export function readRouting(primary: Db, standby: Db | undefined): ReadRouting {
  if (!standby) return { replica: false, standby: undefined, reader: async () => primary, noteWrite: async () => {} };
  return {
    replica: true,
    standby,
    async reader(userId) {
      try {
        const { rows } =
          userId === undefined
            ? { rows: [] }
            : await primary.query<{ lsn: string }>('SELECT lsn FROM user_write_lsn WHERE user_id = $1', [userId]);
        // Also the standby's health check: a standby that cannot answer leaves the read to the primary.
        const { rows: caught } = await standby.query<{ ok: boolean }>(
          'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS ok',
          [rows[0]?.lsn ?? '0/0'],
        );
        return caught[0]?.ok ? standby : primary;
      } catch {
        return primary;
      }
    },
    async noteWrite(userId) {
      // The insert position, not pg_current_wal_lsn() (what has been written out): with
      // synchronous_commit off the change's commit record may not be written yet, and a standby
      // at the written position would still lack the change.
      await primary.query(
        `INSERT INTO user_write_lsn (user_id, lsn) VALUES ($1, pg_current_wal_insert_lsn()::text)
         ON CONFLICT (user_id) DO UPDATE SET lsn = excluded.lsn, written_at = now()`,
        [userId],
      );
    },
  };
}
