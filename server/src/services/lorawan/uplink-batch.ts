import type { LnsEventResult } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { storeUplinks, type UplinkItem } from './store-uplinks.js';

/**
 * Group commit of uplinks (docs/lorawan.md, "How uplinks are written"). An LNS sends one uplink
 * per request; written one by one, each pays a statement, its planning and a commit of its own.
 * Here the uplinks that arrive while a batch is being written wait for the next one, which takes
 * them all (up to MAX_BATCH) into one statement and one commit; each request is answered with its
 * own outcome only after that commit. An idle server writes an uplink at once (no delay is added):
 * batches grow only with the load.
 *
 * A batch the database refuses as a whole because of one uplink's data (a constraint, a value it
 * cannot take) must not fail the others: its uplinks are then written again one by one, so only
 * the faulty one fails. When the database is away, every request of the batch gets that error (503).
 */

/** The most uplinks in one statement (about 2 KB of parameters each). */
export const MAX_BATCH = 500;

interface Waiting extends UplinkItem {
  resolve(result: LnsEventResult): void;
  reject(err: unknown): void;
}

class UplinkQueue {
  readonly #db: Queryable;
  #waiting: Waiting[] = [];
  #writing = false;
  #scheduled = false;

  constructor(db: Queryable) {
    this.#db = db;
  }

  submit(item: UplinkItem): Promise<LnsEventResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ ...item, resolve, reject });
      this.#schedule();
    });
  }

  /** After the requests already read in this turn of the event loop have joined: one batch for all of them. */
  #schedule(): void {
    if (this.#writing || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#writeNext();
    });
  }

  async #writeNext(): Promise<void> {
    if (this.#writing || this.#waiting.length === 0) return;
    this.#writing = true;
    const batch = this.#waiting.splice(0, MAX_BATCH);
    try {
      await writeBatch(this.#db, batch);
    } finally {
      this.#writing = false;
      if (this.#waiting.length) this.#schedule();
    }
  }
}

async function writeBatch(db: Queryable, batch: readonly Waiting[]): Promise<void> {
  try {
    const results = await storeUplinks(db, batch);
    batch.forEach((w, k) => w.resolve(results[k]!));
  } catch (err) {
    if (batch.length === 1 || isDatabaseUnavailable(err)) {
      for (const w of batch) w.reject(err);
      return;
    }
    // Which uplink the database refused is not said: each alone, so that only that one fails.
    for (const w of batch) {
      try {
        w.resolve((await storeUplinks(db, [w]))[0]!);
      } catch (e) {
        w.reject(e);
      }
    }
  }
}

/** One queue per database handle (a process has one; the tests open several). */
const queues = new WeakMap<Queryable, UplinkQueue>();

/** Stores an uplink with the others arriving at the same time; resolves after its commit, with its own outcome. */
export function submitUplink(db: Queryable, item: UplinkItem): Promise<LnsEventResult> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new UplinkQueue(db)));
  return queue.submit(item);
}
