import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

// What the cluster lane's failover test reads off the machine (docs/operations.md, "A frozen
// primary"): the processes to freeze, and which servers HAProxy sends writes to.

/** The processes whose parent is `pid` (PostgreSQL's backends and workers of a postmaster). */
export function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry));
    } catch {}
  }
  return found;
}

/** The servers of HAProxy's `proxy` whose status is UP (or UP going down), from its stats socket. */
export async function serversUp(socketPath: string, proxy: string): Promise<string[]> {
  const csv = await new Promise<string>((resolve, reject) => {
    let out = '';
    const socket = connect(socketPath);
    socket.setTimeout(2000, () => socket.destroy(new Error('HAProxy stats socket timed out')));
    socket.on('data', (c) => (out += c));
    socket.once('error', reject);
    socket.once('end', () => resolve(out));
    socket.once('connect', () => socket.write('show stat\n'));
  });
  // # pxname,svname,…: status is the 18th field.
  return csv
    .split('\n')
    .map((line) => line.split(','))
    .filter(([px, sv, ...rest]) => px === proxy && sv !== 'FRONTEND' && sv !== 'BACKEND' && rest[15]?.startsWith('UP'))
    .map(([, sv]) => sv!);
}
