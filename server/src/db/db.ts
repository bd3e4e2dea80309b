/** What services need of a database connection: parameterised SQL. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** A connection inside a transaction. */
export interface Tx extends Queryable {
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A database: embedded PGlite or a PostgreSQL server, one SQL dialect. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction on one connection; commits if it resolves, rolls back if it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
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
