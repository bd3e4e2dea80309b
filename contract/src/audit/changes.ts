import { RULE_NAMES } from '../data-quality.js';

/**
 * The audit entries' field names in both UI languages, for the log screen and its export (the
 * entries keep the API's field names). A field missing here shows under its own name.
 */
export const AUDIT_FIELD_LABELS: Record<string, { lt: string; en: string }> = {
  // A building's heat method version (docs/heat-method.md).
  Building: { lt: 'Pastatas', en: 'Building' },
  Job: { lt: 'Darbas', en: 'Job' },
  ValidFrom: { lt: 'Galioja nuo', en: 'Valid from' },
  HotWaterHeat: { lt: 'Karšto vandens šiluma', en: 'Hot-water heat' },
  KwhPerM3: { lt: 'kWh už m³', en: 'kWh per m³' },
  CirculationNorm: { lt: 'Cirkuliacijos norma', en: 'Circulation norm' },
  HotWaterTemperature: { lt: 'Karšto vandens temperatūra', en: 'Hot-water temperature' },
  DistrictHeat: { lt: 'Centralizuota šiluma', en: 'District heat' },
  Seasons: { lt: 'Šildymo sezonas', en: 'Heating season' },
  CommonShare: { lt: 'Bendrųjų patalpų dalis', en: 'Common-areas share' },
  BaseShare: { lt: 'Bazinė dalis', en: 'Base share' },
  MinimumShare: { lt: 'Minimali dalis', en: 'Minimum share' },
  PositionFactor: { lt: 'Padėties koeficientas', en: 'Position factor' },
  CirculationClass: { lt: 'Cirkuliacijos klasė', en: 'Circulation class' },
  FlatId: { lt: 'Butas', en: 'Flat' },
  State: { lt: 'Būsena', en: 'State' },
  Comment: { lt: 'Komentaras', en: 'Comment' },
  Rule: { lt: 'Taisyklė', en: 'Rule' },
  Value: { lt: 'Reikšmė', en: 'Value' },
  Month: { lt: 'Mėnuo', en: 'Month' },
  City: { lt: 'Miestas', en: 'City' },
  Version: { lt: 'Versija', en: 'Version' },
  Flats: { lt: 'Butai', en: 'Flats' },
  Letters: { lt: 'Laiškai', en: 'Letters' },
  ChangedFigures: { lt: 'Pasikeitę skaičiai', en: 'Changed figures' },
  ChangedParameters: { lt: 'Pasikeitę metodo parametrai', en: 'Changed method parameters' },
  MonthEnd: { lt: 'Mėnesio pabaiga', en: 'Month end' },
  Source: { lt: 'Šaltinis', en: 'Source' },
  ReadingTime: { lt: 'Rodmens laikas', en: 'Reading time' },
  NextReadingTime: { lt: 'Kito rodmens laikas', en: 'Next reading time' },
  Method: { lt: 'Būdas', en: 'Method' },
  Reason: { lt: 'Priežastis', en: 'Reason' },
  SetBy: { lt: 'Nustatė', en: 'Set by' },
  PreviousValue: { lt: 'Ankstesnė reikšmė', en: 'Previous value' },
  PreviousSource: { lt: 'Ankstesnis šaltinis', en: 'Previous source' },
  ChangedAt: { lt: 'Pakeista', en: 'Changed at' },
  ComputedAt: { lt: 'Apskaičiuota', en: 'Computed at' },
  Username: { lt: 'Vartotojo vardas', en: 'User name' },
  FirstName: { lt: 'Vardas', en: 'First name' },
  LastName: { lt: 'Pavardė', en: 'Last name' },
  GroupId: { lt: 'Grupė', en: 'Group' },
  Email: { lt: 'El. paštas', en: 'Email' },
  Phone: { lt: 'Telefonas', en: 'Phone' },
  Active: { lt: 'Aktyvi', en: 'Active' },
  Rights: { lt: 'Teisės', en: 'Rights' },
  DeviceId: { lt: 'Prietaiso nr.', en: 'Device no.' },
  DeviceCode: { lt: 'Serijos numeris', en: 'Serial number' },
  DeviceTypeId: { lt: 'Prietaiso tipas', en: 'Device type' },
  LocationId: { lt: 'Vieta', en: 'Location' },
  CounterCode: { lt: 'Skaitiklio kodas', en: 'Counter code' },
  DeviceDescription: { lt: 'Aprašymas', en: 'Description' },
  Model: { lt: 'Modelis', en: 'Model' },
  DevEui: { lt: 'DevEUI', en: 'DevEUI' },
  Decoder: { lt: 'Dekoderis', en: 'Decoder' },
  ValueField: { lt: 'Rodmens laukas', en: 'Register field' },
  Unit: { lt: 'Vienetas', en: 'Unit' },
  Scale: { lt: 'Daugiklis', en: 'Scale' },
  TimeField: { lt: 'Laiko laukas', en: 'Time field' },
  RatingFactor: { lt: 'Koeficientas', en: 'Rating factor' },
  InstalledAt: { lt: 'Įrengtas', en: 'Installed' },
  RemovedAt: { lt: 'Nuimtas', en: 'Removed' },
  ReplacedBy: { lt: 'Pakeistas prietaisu', en: 'Replaced by' },
  InitialReading: { lt: 'Pradinis rodmuo', en: 'Initial reading' },
  FinalReading: { lt: 'Galutinis rodmuo', en: 'Final reading' },
  Old: { lt: 'Senas prietaisas', en: 'Old device' },
  New: { lt: 'Naujas prietaisas', en: 'New device' },
  Level: { lt: 'Lygis', en: 'Level' },
  Name: { lt: 'Pavadinimas', en: 'Name' },
  Path: { lt: 'Adresas', en: 'Address' },
  FlatOrder: { lt: 'Buto eilės nr.', en: 'Flat order' },
  AreaM2: { lt: 'Plotas, m²', en: 'Area, m²' },
  ClientCode: { lt: 'Kliento kodas', en: 'Client code' },
  Code: { lt: 'Kodas', en: 'Code' },
  TypeCode: { lt: 'Tipo kodas', en: 'Type code' },
  TypeName: { lt: 'Tipas', en: 'Type' },
  CategoryCode: { lt: 'Kategorijos kodas', en: 'Category code' },
  CategoryName: { lt: 'Kategorija', en: 'Category' },
  Prefix: { lt: 'Rakto pradžia', en: 'Key prefix' },
  RevokedAt: { lt: 'Atšauktas', en: 'Revoked' },
  rows: { lt: 'Eilučių', en: 'Rows' },
  Locations: { lt: 'Vietos', en: 'Locations' },
  Objects: { lt: 'Objektai', en: 'Objects' },
  Clients: { lt: 'Klientai', en: 'Clients' },
  Devices: { lt: 'Prietaisai', en: 'Devices' },
  Created: { lt: 'Sukurta', en: 'Created' },
  Changed: { lt: 'Pakeista', en: 'Changed' },
  Unchanged: { lt: 'Nepakeista', en: 'Unchanged' },
  MoveIn: { lt: 'Įsikėlė', en: 'Moved in' },
  MoveOut: { lt: 'Išsikėlė', en: 'Moved out' },
  Language: { lt: 'Kalba', en: 'Language' },
  ConsentAt: { lt: 'Sutikimo data', en: 'Consent date' },
  ConsentChannel: { lt: 'Sutikimo kanalas', en: 'Consent channel' },
  Flat: { lt: 'Butas', en: 'Flat' },
  Anonymised: { lt: 'Anonimizuota', en: 'Anonymised' },
  Day: { lt: 'Diena', en: 'Day' },
  NewKeys: { lt: 'Nauji skaitiklių raktai', en: 'New meter keys' },
  ChangedKeys: { lt: 'Pakeisti skaitiklių raktai', en: 'Changed meter keys' },
  Collector: { lt: 'Kolektorius', en: 'Collector' },
  Meters: { lt: 'Skaitiklių', en: 'Meters' },
  KeysOf: { lt: 'Perduoti raktai', en: 'Keys sent' },
  Kind: { lt: 'Rūšis', en: 'Kind' },
  Url: { lt: 'URL adresas', en: 'URL' },
  LocationIds: { lt: 'Vietos', en: 'Locations' },
  ExpiresAt: { lt: 'Galioja iki', en: 'Valid until' },
  RevokedSecrets: { lt: 'Atšauktos nuorodos ir kodai', en: 'Links and codes revoked' },
  Issued: { lt: 'Išduota', en: 'Issued' },
  // Exchange campaigns (docs/device-lifetime.md).
  StartedOn: { lt: 'Pradėta', en: 'Started on' },
  DeviceIds: { lt: 'Prietaisai', en: 'Devices' },
  BuildingId: { lt: 'Pastatas', en: 'Building' },
  From: { lt: 'Nuo', en: 'From' },
  To: { lt: 'Iki', en: 'To' },
  Mailed: { lt: 'Išsiųsta el. paštu', en: 'E-mailed' },
  Failed: { lt: 'Nepavyko išsiųsti', en: 'Failed' },
  Printed: { lt: 'Spausdinti', en: 'On the print list' },
  AlreadyTold: { lt: 'Pranešta anksčiau', en: 'Told before' },
};

/** One field of an audit entry that differs between before and after (`null` = absent or empty). */
export interface AuditChange {
  /** The field, nested ones joined by dots: `Old.DeviceCode`. */
  field: string;
  before: unknown;
  after: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What an entry changed, field by field, in the entry's own key order: every field whose value
 * differs (a creation lists every field with a value; a deletion every field it had). Objects
 * inside are compared field by field too.
 */
export function auditChanges(before: unknown, after: unknown, prefix = ''): AuditChange[] {
  const b = isPlainObject(before) ? before : {};
  const a = isPlainObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const out: AuditChange[] = [];
  for (const key of keys) {
    const x = b[key] ?? null;
    const y = a[key] ?? null;
    if (isPlainObject(x) || isPlainObject(y)) {
      out.push(...auditChanges(x, y, `${prefix}${key}.`));
    } else if (JSON.stringify(x) !== JSON.stringify(y)) {
      out.push({ field: `${prefix}${key}`, before: x, after: y });
    }
  }
  return out;
}

/** A field's label in a language: each dotted part by AUDIT_FIELD_LABELS (`Old.DeviceCode` → "Old device: Serial number"). */
export const auditFieldLabel = (field: string, lang: 'lt' | 'en'): string =>
  field
    .split('.')
    .map((part) => AUDIT_FIELD_LABELS[part]?.[lang] ?? part)
    .join(': ');

const MONTH_END_SOURCE_LABELS = {
  measured: { lt: 'išmatuota', en: 'measured' },
  memory: { lt: 'prietaiso atmintis', en: 'device memory' },
  interpolated: { lt: 'interpoliuota', en: 'interpolated' },
  estimated: { lt: 'įvertinta', en: 'estimated' },
  manual: { lt: 'rankinė', en: 'manual' },
  declared: { lt: 'deklaruota', en: 'declared' },
};

/** Coded values by the field that holds them (its last dotted part), in both languages. */
export const AUDIT_VALUE_LABELS: Record<string, Record<string, { lt: string; en: string }>> = {
  Source: MONTH_END_SOURCE_LABELS,
  PreviousSource: MONTH_END_SOURCE_LABELS,
  Rule: RULE_NAMES,
  State: {
    open: { lt: 'atvira', en: 'open' },
    acknowledged: { lt: 'patvirtinta', en: 'acknowledged' },
    resolved: { lt: 'išspręsta', en: 'resolved' },
  },
  // A heat method version's hot-water mode (docs/heat-method.md), as the statements name it.
  HotWaterHeat: {
    norm: { lt: 'norma', en: 'norm' },
    meter: { lt: 'karšto vandens skaitiklis', en: 'hot-water meter' },
    formulaDE: { lt: 'įvertis pagal HeizkostenV', en: 'HeizkostenV estimate' },
  },
};

/**
 * An audit value as text: empty as "—", yes/no in the language, lists joined by "; ", a coded
 * value of `field` (a month-end source, an anomaly state) by its name in the language.
 */
export function auditValueText(value: unknown, lang: 'lt' | 'en', field = ''): string {
  if (value === null || value === undefined || value === '') return '—';
  const coded = typeof value === 'string' ? AUDIT_VALUE_LABELS[field.split('.').pop()!]?.[value] : undefined;
  if (coded) return coded[lang];
  if (typeof value === 'boolean') return value ? (lang === 'lt' ? 'taip' : 'yes') : lang === 'lt' ? 'ne' : 'no';
  if (Array.isArray(value)) return value.length ? value.map((v) => auditValueText(v, lang)).join('; ') : '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** An entry's changes as text lines, "Field: before → after", in the language (the export's Changes column). */
export const auditChangesText = (before: unknown, after: unknown, lang: 'lt' | 'en'): string =>
  auditChanges(before, after)
    .map(
      (c) =>
        `${auditFieldLabel(c.field, lang)}: ${before == null ? '' : `${auditValueText(c.before, lang, c.field)} → `}${auditValueText(c.after, lang, c.field)}`,
    )
    .join('\n');
