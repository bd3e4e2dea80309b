import type { OccupantSession } from '@rodmenys/contract';
import { useSyncExternalStore } from 'react';

/**
 * The occupant's session (docs/occupant-access.md), apart from the back office's: kept in the
 * tab's sessionStorage, so it ends with the tab and never meets a back-office sign-in.
 */
const KEY = 'rodmenys.occupant';

type Listener = () => void;
const listeners = new Set<Listener>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: Listener) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The session's text when the browser refuses storage (a locked-down private window): it lives as long as the page. */
let memory: string | null = null;
function read(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return memory;
  }
}

let cachedRaw: string | null = null;
let cached: OccupantSession | null = null;
/** The occupant session of this tab, or null; one past its expiry counts as none. */
export function getOccupantSession(): OccupantSession | null {
  const raw = read();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    try {
      cached = raw ? (JSON.parse(raw) as OccupantSession) : null;
    } catch {
      cached = null;
    }
  }
  if (cached && Date.parse(cached.ExpiresAt) <= Date.now()) return null;
  return cached;
}

let endReason: string | null = null;
/** Why the session ended (the server's 401 code, or 'signedOut'), until the next sign-in. */
export const occupantEndReason = () => endReason;

/** Keeps a new session (after the link or the code) or forgets it; `reason` is the server's code when it ended it. */
export function setOccupantSession(session: OccupantSession | null, reason: string | null = null): void {
  endReason = session ? null : reason;
  memory = session ? JSON.stringify(session) : null;
  try {
    if (memory) sessionStorage.setItem(KEY, memory);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused: `memory` keeps it.
  }
  notify();
}

/** The occupant session, re-rendering when it starts or ends. */
export const useOccupantSession = () => useSyncExternalStore(subscribe, getOccupantSession);
