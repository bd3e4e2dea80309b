import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The installed PGlite version (its package.json is not exported). */
function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const pkg = JSON.parse(readFileSync(new URL('../package.json', `file://${entry}`), 'utf8')) as { version: string };
  return pkg.version;
}

/** What the figures were measured on. */
export function machineInfo(postgresVersion: string): string[] {
  const cpu = cpus();
  return [
    `CPU: ${cpu[0]?.model.trim() ?? 'unknown'}, ${cpu.length} cores`,
    `RAM: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `Node: ${process.version} (${process.platform} ${process.arch})`,
    `PostgreSQL server: ${postgresVersion}`,
    `Embedded: PGlite ${pgliteVersion()}`,
  ];
}
