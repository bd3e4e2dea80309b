import type { TFunction } from 'i18next';
import { ApiError } from '../../api/call';

/**
 * What a refused sign-in says, in plain words: the server answers one 401 for a wrong code, a
 * wrong flat, a revoked or an expired secret (it reveals nothing), and 429 with Retry-After when
 * too many attempts were made. `by` is how the occupant tried.
 */
export function signInErrorText(error: unknown, by: 'code' | 'link', t: TFunction, otherwise: string): string {
  if (!(error instanceof ApiError)) return otherwise;
  if (error.status === 401) return t(`occupant.${by}.refused`);
  if (error.status === 429) {
    const seconds = error.retryAfter;
    if (seconds === undefined) return t('occupant.code.tooMany');
    if (seconds < 120) return t('occupant.code.tooManySeconds', { seconds });
    return t('occupant.code.tooManyMinutes', { minutes: Math.ceil(seconds / 60) });
  }
  return otherwise;
}
