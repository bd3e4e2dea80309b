import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PostgresCluster {
  url: string;
  stop(): Promise<void>;
}

type StartPostgres = (options?: { port?: number; durable?: boolean }) => Promise<PostgresCluster>;

/**
 * A throwaway PostgreSQL cluster (initdb in a temp folder, a private port), from
 * the repository's `scripts/pg-cluster.mjs`; stopped and deleted by `stop()` or at exit.
 */
export async function startPostgres(options?: { port?: number; durable?: boolean }): Promise<PostgresCluster> {
  const script = path.join(import.meta.dirname, '../../../scripts/pg-cluster.mjs');
  const mod = (await import(pathToFileURL(script).href)) as { startPostgres: StartPostgres };
  return mod.startPostgres(options);
}
