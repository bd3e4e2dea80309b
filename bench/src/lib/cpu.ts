import { readFileSync } from 'node:fs';
import type { Db } from '../../../server/src/db/db.js';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

export function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * CPU time spent by this process and by the PostgreSQL server's client backends
 * (read from /proc, Linux): unlike wall time it barely moves when other work
 * shares the machine. For PGlite the database runs inside this process.
 */
export async function cpuClock(db: Db): Promise<() => number> {
  const backends =
    db.kind === 'postgres'
      ? (
          await db.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND datname = current_database()`,
          )
        ).rows.map((r) => r.pid)
      : [];
  return () => {
    const own = process.cpuUsage();
    return (own.user + own.system) / 1000 + backends.reduce((sum, pid) => sum + procCpuMs(pid), 0);
  };
}
