import type { ErrorBody } from '@rodmenys/contract';
import { formatNumberText } from '../format';
import i18n from '../i18n';

type Coded = { code?: string; params?: Record<string, string>; message?: string };

/**
 * The label of a field the server named: `fields.<name>`; for a path into a list
 * (`devices.3.installedAt`) the label of its last name and the item's number (`Installed at, 4`);
 * the name itself when nothing is known.
 */
export function fieldLabel(field: string): string {
  if (i18n.exists(`fields.${field}`)) return i18n.t(`fields.${field}`);
  const parts = field.split('.');
  const name = [...parts].reverse().find((p) => !/^\d+$/.test(p));
  const index = parts.find((p) => /^\d+$/.test(p));
  if (!name || !i18n.exists(`fields.${name}`)) return field;
  const label = i18n.t(`fields.${name}`);
  return index === undefined ? label : `${label}, ${Number(index) + 1}`;
}

/** The name of a data-quality setting (`monthEnd.toleranceDays`) in the UI language; the key when it has none. */
export function settingLabel(key: string): string {
  return i18n.exists(`anomalies.settingNames.${key}`) ? i18n.t(`anomalies.settingNames.${key}`) : key;
}

/**
 * A server error in the UI language: the translation of its code (`serverErrors.<code>`), with
 * a field name in its params shown by its label (`fields.<name>`) and a setting's key by its name
 * (`anomalies.settingNames.<key>`) (or by `label`, the field's label where the form shows it), a decimal
 * number as the language writes it; the server's English message only when the code has no
 * translation (docs/ARCHITECTURE.md, "Errors").
 */
export function translateServerError(error: Coded, fallback = '', label?: string): string {
  const message = error.message || fallback;
  if (!error.code || !i18n.exists(`serverErrors.${error.code}`)) return message;
  // Numbers in the language's own writing (a decimal comma in lt), as every screen shows them.
  const params = Object.fromEntries(
    Object.entries(error.params ?? {}).map(([k, v]) => [
      k,
      typeof v === 'string' ? formatNumberText(v, i18n.language) : v,
    ]),
  );
  if (params.field) params.field = label ?? fieldLabel(params.field);
  if (params.key) params.key = settingLabel(params.key);
  return i18n.t(`serverErrors.${error.code}`, params);
}

/** The field errors of a 400, each message in the UI language. */
export function translateFieldErrors(errors: ErrorBody['errors']): ErrorBody['errors'] {
  return errors?.map((e) => ({ ...e, message: translateServerError(e) }));
}
