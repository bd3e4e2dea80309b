import type { ErrorBody } from '@rodmenys/contract';
import i18n from '../i18n';

type Coded = { code?: string; params?: Record<string, string>; message?: string };

/**
 * A server error in the UI language: the translation of its code (`serverErrors.<code>`), with
 * a field name in its params shown by its label (`fields.<name>`); the server's English message
 * only when the code has no translation (docs/ARCHITECTURE.md, "Errors").
 */
export function translateServerError(error: Coded, fallback = ''): string {
  const message = error.message || fallback;
  if (!error.code || !i18n.exists(`serverErrors.${error.code}`)) return message;
  const params = { ...error.params };
  if (params.field) params.field = i18n.t(`fields.${params.field}`, { defaultValue: params.field });
  return i18n.t(`serverErrors.${error.code}`, params);
}

/** The field errors of a 400, each message in the UI language. */
export function translateFieldErrors(errors: ErrorBody['errors']): ErrorBody['errors'] {
  return errors?.map((e) => ({ ...e, message: translateServerError(e) }));
}
