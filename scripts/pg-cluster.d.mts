// Types of pg-cluster.mjs for the TypeScript tests and benchmarks that start throwaway clusters.

/** A throwaway PostgreSQL cluster (superuser `postgres`, trust authentication). */
export interface PostgresCluster {
  url: string;
  port: number;
  /** Its folder (data, sockets, server.log); deleted by `stop()`. */
  dir: string;
  /** Shuts it down and deletes its folder. */
  stop(): Promise<void>;
}

/** A primary from `startPostgres`: can also be stopped and started again keeping its data. */
export interface PrimaryCluster extends PostgresCluster {
  halt(): Promise<void>;
  resume(): Promise<void>;
}

export interface ClusterOptions {
  /** Defaults to a free port. */
  port?: number;
  /** Keeps fsync and full-page writes (crash tests); off otherwise for speed. */
  durable?: boolean;
  /** postgresql.conf entries added or overridden, values as written there: `{ work_mem: "'64MB'" }`. */
  settings?: Record<string, string>;
}

export function findPostgresBin(): string | undefined;
export function hasPostgresBinaries(): boolean;
export function freePort(): Promise<number>;
export function startPostgres(options?: ClusterOptions): Promise<PrimaryCluster>;
export function startStandby(
  primary: PostgresCluster,
  options?: { settings?: Record<string, string> },
): Promise<PostgresCluster>;
