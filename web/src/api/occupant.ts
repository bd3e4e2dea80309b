/**
 * TanStack Query hooks of the occupant's endpoints (docs/occupant-access.md), typed from the
 * contract. Every call carries the occupant session of the tab and never a back-office token;
 * a 401 ends the occupant session (the pages then show the code page and say why).
 */
import {
  type DeclareBody,
  declareReading,
  type Endpoint,
  getOccupantDeclarations,
  getOccupantProfile,
  getOccupantStatement,
  getOccupantStatementPdf,
  listOccupantMonths,
  type OccupantSession,
  type ResponseOf,
  signInOccupantByCode,
  signInOccupantByLink,
  signOutOccupant,
  updateOccupantConsent,
  uploadOccupantPhoto,
} from '@rodmenys/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getOccupantSession, setOccupantSession } from '../occupant-session';
import { ApiError, type CallArgs, call, downloadFile, uploadFile } from './call';

/** The occupant's bearer value, or '' (no Authorization header at all: never the back office's token). */
const occupantToken = () => getOccupantSession()?.Token ?? '';

/** A 401 on an occupant endpoint: the session is over (revoked, expired, signed out elsewhere). */
function endOnUnauthorised(error: unknown): never {
  if (error instanceof ApiError && error.status === 401) setOccupantSession(null, error.code ?? 'occupantSessionEnded');
  throw error;
}

/** Calls an occupant endpoint with the tab's occupant session. */
export async function callOccupant<E extends Endpoint>(endpoint: E, args: CallArgs<E>): Promise<ResponseOf<E>> {
  return (call as (e: E, a: CallArgs<E>) => Promise<ResponseOf<E>>)(endpoint, {
    ...args,
    token: occupantToken(),
  }).catch(endOnUnauthorised);
}

/** The cache key of an occupant call: under 'occupant', so that signing out drops exactly these. */
const occupantKey = (endpoint: Endpoint, args?: object) => ['occupant', endpoint.method, endpoint.path, args ?? {}];

export const useOccupantProfile = () =>
  useQuery<ResponseOf<typeof getOccupantProfile>, ApiError>({
    queryKey: occupantKey(getOccupantProfile),
    queryFn: ({ signal }) => callOccupant(getOccupantProfile, { signal }),
  });

export const useOccupantMonths = () =>
  useQuery<ResponseOf<typeof listOccupantMonths>, ApiError>({
    queryKey: occupantKey(listOccupantMonths),
    queryFn: ({ signal }) => callOccupant(listOccupantMonths, { signal }),
  });

export const useOccupantStatement = (month: string) =>
  useQuery<ResponseOf<typeof getOccupantStatement>, ApiError>({
    queryKey: occupantKey(getOccupantStatement, { month }),
    queryFn: ({ signal }) => callOccupant(getOccupantStatement, { params: { month }, signal }),
  });

/** The declaration window and the flat's declared devices (docs/declared-readings.md). */
export const useOccupantDeclarations = () =>
  useQuery<ResponseOf<typeof getOccupantDeclarations>, ApiError>({
    queryKey: occupantKey(getOccupantDeclarations),
    queryFn: ({ signal }) => callOccupant(getOccupantDeclarations, { signal }),
  });

/** Uploads a meter's photo (its type is read from the content); the answer names it for the declaration. */
export const uploadDeclarationPhoto = (file: File) =>
  uploadFile(
    uploadOccupantPhoto,
    file,
    file.type === 'image/png' || file.type === 'image/jpeg' ? file.type : 'application/octet-stream',
    undefined,
    occupantToken(),
  ).catch(endOnUnauthorised);

/** Declares a reading; on success the page's list is fetched again (the new declaration counts). */
export function useDeclareReading() {
  const client = useQueryClient();
  return useMutation<ResponseOf<typeof declareReading>, ApiError, DeclareBody>({
    mutationFn: (body) => callOccupant(declareReading, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: occupantKey(getOccupantDeclarations) }),
  });
}

/** Switches electronic delivery on or off; the answer is the profile as the server now has it. */
export function useUpdateOccupantConsent() {
  const client = useQueryClient();
  return useMutation<ResponseOf<typeof updateOccupantConsent>, ApiError, boolean>({
    mutationFn: (electronic) => callOccupant(updateOccupantConsent, { body: { electronic } }),
    onSuccess: (profile) => client.setQueryData(occupantKey(getOccupantProfile), profile),
  });
}

/** Exchanges a link's token or a flat and letter code for a session, kept for the tab. */
export async function signInOccupant(by: { token: string } | { flat: number; code: string }): Promise<OccupantSession> {
  const session =
    'token' in by
      ? await call(signInOccupantByLink, { body: by, token: '' })
      : await call(signInOccupantByCode, { body: by, token: '' });
  setOccupantSession(session);
  return session;
}

/** Ends the occupant session here and on the server, and drops every occupant answer kept. */
export async function signOutOccupantSession(client: ReturnType<typeof useQueryClient>): Promise<void> {
  const token = occupantToken();
  setOccupantSession(null, 'signedOut');
  client.removeQueries({ queryKey: ['occupant'] });
  if (!token) return;
  try {
    await call(signOutOccupant, { token });
  } catch {
    // Already over on the server: forgetting it here is what matters.
  }
}

/** Downloads a month's statement as PDF in `lang`, saved under `fileName`. */
export const downloadOccupantPdf = (month: string, lang: 'lt' | 'en', fileName: string) =>
  downloadFile(getOccupantStatementPdf, { params: { month }, query: { lang }, token: occupantToken() }, fileName).catch(
    endOnUnauthorised,
  );
