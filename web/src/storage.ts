import type { Language, UserSession } from '@rodmenys/contract';
import { DEFAULT_LANGUAGE, LANGUAGES } from '@rodmenys/contract';

/** Browser storage keys (docs/domain.md §10: language, chosen object path and id; plus the session). */
export const STORAGE_KEYS = {
  user: 'rodmenys.user',
  language: 'rodmenys.language',
  objectPath: 'rodmenys.object',
  objectId: 'rodmenys.objectId',
} as const;

type Listener = () => void;
const listeners = new Set<Listener>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Subscribe to changes of the stored session or chosen object (same tab and other tabs). */
export function subscribeStorage(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
if (typeof window !== 'undefined') window.addEventListener('storage', notify);

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
}

let cachedRaw: string | null = null;
let cachedUser: UserSession | null = null;
/** The signed-in user, or null. A session past its expiry counts as signed out. */
export function getSession(): UserSession | null {
  const raw = read(STORAGE_KEYS.user);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    try {
      cachedUser = raw ? (JSON.parse(raw) as UserSession) : null;
    } catch {
      cachedUser = null;
    }
  }
  if (cachedUser && Date.parse(cachedUser.Expires) <= Date.now()) return null;
  return cachedUser;
}

export function setSession(user: UserSession | null): void {
  endReason = null;
  write(STORAGE_KEYS.user, user ? JSON.stringify(user) : null);
  notify();
}

let endReason: string | null = null;
/** Why the server ended the session (its 401 error code, e.g. accountDeactivated), until the next sign-in. */
export const sessionEndReason = () => endReason;

/** Signing out forgets the user and the chosen object (docs/domain.md §10); `reason` is the server's code when it ended the session. */
export function clearSession(reason: string | null = null): void {
  endReason = reason;
  write(STORAGE_KEYS.user, null);
  write(STORAGE_KEYS.objectPath, null);
  write(STORAGE_KEYS.objectId, null);
  notify();
}

/** The object chosen on "My objects" (VisibleLocationPath and VisibleLocationId). */
export interface ChosenObject {
  path: string;
  id: number;
}
let cachedObjectKey = '';
let cachedObject: ChosenObject | null = null;
export function getChosenObject(): ChosenObject | null {
  const path = read(STORAGE_KEYS.objectPath);
  const id = Number(read(STORAGE_KEYS.objectId));
  const key = `${path}\u0000${id}`;
  if (key !== cachedObjectKey) {
    cachedObjectKey = key;
    cachedObject = path && Number.isInteger(id) && id > 0 ? { path, id } : null;
  }
  return cachedObject;
}
export function setChosenObject(object: ChosenObject | null): void {
  write(STORAGE_KEYS.objectPath, object ? object.path : null);
  write(STORAGE_KEYS.objectId, object ? String(object.id) : null);
  notify();
}

export function getStoredLanguage(): Language {
  return getLanguageChoice() ?? DEFAULT_LANGUAGE;
}
/** The language chosen in this browser before (the switch, or a sign-in in the occupancy's language), if any. */
export function getLanguageChoice(): Language | null {
  const value = read(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : null;
}
export function setStoredLanguage(language: Language): void {
  write(STORAGE_KEYS.language, language);
}
