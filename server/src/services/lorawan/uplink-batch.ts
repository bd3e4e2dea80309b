import type { LnsEventResult } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { PartlyStored, storeUplinks, type UplinkItem } from './store-uplinks.js';

/**
 * Group commit of uplinks (docs/lorawan.md, "How uplinks are written"). An LNS sends one uplink
 * per request; written one by one, each pays a statement, its planning and a commit of its own.
 * Here the uplinks that arrive while a batch is being written wait for the next one, which takes
 * them all (up to MAX_BATCH) into one statement and one commit; each request is answered with its
 * own outcome only after that commit. An idle server writes an uplink at once (no delay is added):
 * batches grow only with the load. On PostgreSQL a second batch may be in flight when enough
 * uplinks wait (SECOND_BATCH_MIN), so that the server reads the next requests while the database
 * commits; PGlite runs in the process on one connection, where a second batch would only wait.
 *
 * A batch the database refuses as a whole because of one uplink's data (a constraint, a value it
 * cannot take) must not fail the others: its uplinks are then written again one by one, so only
 * the faulty one fails. When the database is away, every request of the batch gets that error (503).
 */

/** The most uplinks in one statement (about 2 KB of parameters each). */
export const MAX_BATCH = 500;
/**
 * A second batch starts beside one in flight only with this many uplinks waiting: fewer wait for
 * the first to end (a server short of CPU would otherwise write many batches of one or two).
 */
const SECOND_BATCH_MIN = 8;

/** What a process's queue has written (the tests read it; a rising `oneByOne` says batches are refused). */
export interface UplinkBatchStats {
  /** Batches written, each one statement (a batch written again one by one counts once here). */
  batches: number;
  /** Uplinks in them. */
  uplinks: number;
  /** Batches the database refused, whose uplinks were then written one by one. */
  oneByOne: number;
}

interface Waiting extends UplinkItem {
  resolve(result: LnsEventResult): void;
  reject(err: unknown): void;
}

class UplinkQueue {
  readonly #db: Queryable;
  readonly #inFlight: number;
  #waiting: Waiting[] = [];
  #writing = 0;
  #scheduled = false;
  readonly stats: UplinkBatchStats = { batches: 0, uplinks: 0, oneByOne: 0 };

  constructor(db: Queryable, inFlight: number) {
    this.#db = db;
    this.#inFlight = inFlight;
  }

  submit(item: UplinkItem): Promise<LnsEventResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ ...item, resolve, reject });
      this.#schedule();
    });
  }

  /** After the requests already read in this turn of the event loop have joined: one batch for all of them. */
  #schedule(): void {
    if (this.#scheduled || !this.#mayStart()) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#writeNext();
    });
  }

  #mayStart(): boolean {
    return this.#writing === 0 || (this.#writing < this.#inFlight && this.#waiting.length >= SECOND_BATCH_MIN);
  }

  async #writeNext(): Promise<void> {
    if (this.#waiting.length === 0 || !this.#mayStart()) return;
    this.#writing++;
    const batch = this.#waiting.splice(0, MAX_BATCH);
    this.stats.batches++;
    this.stats.uplinks += batch.length;
    try {
      if (!(await writeBatch(this.#db, batch))) this.stats.oneByOne++;
    } finally {
      this.#writing--;
      if (this.#waiting.length) this.#schedule();
    }
  }
}

/** Writes a batch and answers its requests; false when it had to be written again one by one. */
async function writeBatch(db: Queryable, waiting: readonly Waiting[]): Promise<boolean> {
  let batch = waiting;
  try {
    const results = await storeUplinks(db, batch);
    for (const [k, w] of batch.entries()) w.resolve(results[k]!);
    return true;
  } catch (thrown) {
    let err = thrown;
    if (thrown instanceof PartlyStored) {
      // Its committed uplinks are answered; only the rest meet the error.
      for (const [k, w] of batch.entries()) if (thrown.results[k]) w.resolve(thrown.results[k]);
      batch = batch.filter((_, k) => !thrown.results[k]);
      err = thrown.cause;
    }
    if (batch.length === 1 || isDatabaseUnavailable(err)) {
      for (const w of batch) w.reject(err);
      return true;
    }
    // Which uplink the database refused is not said: each alone, so that only that one fails.
    for (const w of batch) {
      try {
        w.resolve((await storeUplinks(db, [w]))[0]!);
      } catch (e) {
        w.reject(e);
      }
    }
    return false;
  }
}

/** One queue per database handle (a process has one; the tests open several). */
const queues = new WeakMap<Db, UplinkQueue>();

function queueOf(db: Db): UplinkQueue {
  let queue = queues.get(db);
  if (!queue) {
    queue = new UplinkQueue(db, db.kind === 'postgres' ? 2 : 1);
    queues.set(db, queue);
  }
  return queue;
}

/** Stores an uplink with the others arriving at the same time; resolves after its commit, with its own outcome. */
export function submitUplink(db: Db, item: UplinkItem): Promise<LnsEventResult> {
  return queueOf(db).submit(item);
}

/** What has been written through this database handle so far (a copy). */
export const uplinkBatchStats = (db: Db): UplinkBatchStats => ({ ...queueOf(db).stats });
