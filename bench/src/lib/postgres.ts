import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PostgresCluster {
  url: string;
  /** The private port it listens on (127.0.0.1). */
  port: number;
  /** The cluster's folder (its log is `server.log` there). */
  dir: string;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  port?: number;
  durable?: boolean;
  /** postgresql.conf entries as written there, e.g. `{ shared_buffers: "'1GB'" }`. */
  settings?: Record<string, string | number>;
}

/**
 * A throwaway PostgreSQL cluster (initdb in a temp folder, a private port), from
 * the repository's `scripts/pg-cluster.mjs`; stopped and deleted by `stop()` or at exit.
 */
export async function startPostgres(options?: PostgresOptions): Promise<PostgresCluster> {
  const script = path.join(import.meta.dirname, '../../../scripts/pg-cluster.mjs');
  const mod = (await import(pathToFileURL(script).href)) as {
    startPostgres: (options?: PostgresOptions) => Promise<PostgresCluster>;
  };
  return mod.startPostgres(options);
}
