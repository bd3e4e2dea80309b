import { readFileSync } from 'node:fs';
import type { Db } from '@rodmenys/server/db/db.js';

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
 *
 * The pool opens and closes connections as it goes (idle ones close after
 * 10 s, e.g. during a long naive query; parallel parts open more): every read
 * lists the backends again (one small query, ~0.2 ms, of which one lands in a
 * measured interval), counts new ones from their start and keeps the last
 * reading of those that exited.
 */
export async function cpuClock(db: Db): Promise<() => Promise<number>> {
  const backends = new Map<number, number>();
  return async () => {
    if (db.kind === 'postgres') {
      const { rows } = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND datname = current_database()`,
      );
      for (const { pid } of rows) backends.set(pid, Math.max(backends.get(pid) ?? 0, procCpuMs(pid)));
    }
    const own = process.cpuUsage();
    let total = (own.user + own.system) / 1000;
    for (const [pid, last] of backends) {
      const now = procCpuMs(pid);
      if (now > last) backends.set(pid, now);
      total += Math.max(now, last);
    }
    return total;
  };
}

/** The whole machine's busy CPU time in ms (every core, every process: /proc/stat's first line, Linux). */
export function machineCpuMs(): { busy: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal …: idle and iowait are not busy.
  const busy = fields.slice(0, 8).reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0);
  return { busy: busy * TICK_MS };
}
