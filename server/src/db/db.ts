/** What services need of a database connection: parameterised SQL. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Bulk loading with COPY: the fast way to load many rows (demo data, benchmarks). */
export interface BulkLoader {
  /**
   * Runs `sql`, a `COPY table (cols) FROM STDIN WITH (FORMAT csv)` statement, fed
   * with `rows`: CSV text chunks, each ending at a row boundary. All rows load or none.
   */
  copyIn(sql: string, rows: CsvChunks): Promise<void>;
}

export type CsvChunks = AsyncIterable<string> | Iterable<string>;

export interface TransactionOptions {
  /** Roll back even when the work succeeds (a preview of its result). */
  rollback?: boolean;
}

/** A connection inside a transaction. */
export interface Tx extends Queryable, BulkLoader {
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A database: embedded PGlite or a PostgreSQL server, one SQL dialect. */
export interface Db extends Queryable, BulkLoader {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction on one connection; commits if it resolves, rolls back if it
   * throws. With `{ rollback: true }` it rolls back when `fn` resolves too, and returns its
   * result: a dry run that did every write and checked every constraint (a register preview).
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

const COPY_FROM_STDIN = /^\s*COPY\s[^;]*\sFROM\s+STDIN\b[^;]*;?\s*$/i;

/** Refuses anything but one `COPY … FROM STDIN` statement, so `copyIn` cannot run arbitrary SQL. */
export function assertCopyFromStdin(sql: string): void {
  if (!COPY_FROM_STDIN.test(sql)) throw new Error(`copyIn needs one COPY … FROM STDIN statement, got: ${sql}`);
}

/** A tiny FIFO mutex: one holder at a time, the rest wait in order. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  async lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => next);
    await previous;
    return release;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.lock();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
