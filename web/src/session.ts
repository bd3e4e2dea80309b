import { logout } from '@rodmenys/contract';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { call } from './api/call';
import { providerNow } from './format';
import { clearSession, getChosenObject, getSession, subscribeStorage } from './storage';

/** The signed-in user (re-renders on sign-in, sign-out and a 401). */
export const useSession = () => useSyncExternalStore(subscribeStorage, getSession);

/** Reads the provider's clock (providerNow) in the zone the signed-in user's session names. */
export function useProviderNow() {
  const timeZone = useSession()?.TimeZone;
  return useCallback(() => providerNow(timeZone), [timeZone]);
}

/** The object chosen on "My objects", or null. */
export const useChosenObject = () => useSyncExternalStore(subscribeStorage, getChosenObject);

/**
 * Signs out: forgets the user and the chosen object, drops every cached answer so that the
 * next user sees nothing of this one, and tells the server (the token stops working).
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  const token = getSession()?.Token;
  clearSession();
  queryClient.clear();
  if (!token) return;
  try {
    await call(logout, { token });
  } catch {
    // The token may already be invalid: signing out locally is what matters.
  }
}
