import { describe, expect, it } from 'vitest';
import { applyFieldMapping, type FieldMapping } from './field-mapping.js';

/* An operator's mapping of an LNS-decoded object: paths, units, scales, times, and hostile objects. */

const m = (more: Partial<FieldMapping> = {}): FieldMapping => ({
  registerField: 'total',
  unit: 'm3',
  scale: 1,
  ...more,
});

describe('applyFieldMapping', () => {
  it('the register from a dotted path, in its unit and scale, with the meter s time', () => {
    const object = { meter: { total: 1234.5 }, time: '2026-09-02T23:09:34Z', battery: 3.6, state: 'ok', alarm: false };
    expect(applyFieldMapping(object, m({ registerField: 'meter.total', timeField: 'time' }))).toEqual({
      ok: true,
      register: { value: 1234.5, unit: 'm3', meterTime: new Date('2026-09-02T23:09:34Z') },
      values: { battery: 3.6, state: 'ok', alarm: 'false', time: '2026-09-02T23:09:34Z', 'meter.total': 1234.5 },
      alarms: [],
      problems: [],
    });
  });

  it.each([
    ['m3', 1, 12.5, 12.5, 'm3'],
    ['l', 1, 12500, 12.5, 'm3'],
    ['m3', 0.001, 12500, 12.5, 'm3'],
    ['kWh', 1, 9818, 9818, 'kWh'],
    ['Wh', 1, 9818000, 9818, 'kWh'],
    ['MWh', 1, 9.818, 9818, 'kWh'],
    ['MWh', 0.01, 981.8, 9818, 'kWh'],
    ['GJ', 1, 1, 277.777777777778, 'kWh'],
    ['HCA', 1, 17, 17, 'HCA'],
  ] as const)('%s × %s: %s is %s %s', (unit, scale, raw, value, out) => {
    expect(applyFieldMapping({ total: raw }, m({ unit, scale }))).toMatchObject({
      ok: true,
      register: { value, unit: out },
    });
  });

  it('array items by index', () => {
    const object = { readings: [{ v: 1 }, { v: 2 }] };
    expect(applyFieldMapping(object, m({ registerField: 'readings.1.v' }))).toMatchObject({ register: { value: 2 } });
    expect(applyFieldMapping(object, m({ registerField: 'readings.length' }))).toMatchObject({
      ok: false,
      reason: 'mapping-field-missing',
    });
  });

  it.each([
    ['a missing field', { other: 1 }, 'total', 'mapping-field-missing'],
    ['a path through a number', { total: 5 }, 'total.x', 'mapping-field-missing'],
    ['an inherited member', {}, 'constructor', 'mapping-field-missing'],
    ['the prototype', {}, '__proto__', 'mapping-field-missing'],
    ['a numeric string', { total: '123' }, 'total', 'mapping-not-a-number'],
    ['null', { total: null }, 'total', 'mapping-not-a-number'],
    ['a boolean', { total: true }, 'total', 'mapping-not-a-number'],
    ['an object', { total: { value: 1 } }, 'total', 'mapping-not-a-number'],
  ])('%s: undecoded', (_, object, registerField, reason) => {
    expect(applyFieldMapping(object, m({ registerField }))).toMatchObject({ ok: false, reason });
  });

  it.each([
    ['null', null],
    ['an array', [1, 2]],
    ['a string', '{"total":1}'],
    ['a number', 5],
  ])('the LNS object is %s: undecoded', (_, object) => {
    expect(applyFieldMapping(object, m())).toEqual({ ok: false, reason: 'mapping-not-an-object' });
  });

  it.each([
    ['an empty path', m({ registerField: '' })],
    ['an empty step', m({ registerField: 'a..b' })],
    ['17 steps', m({ registerField: Array(17).fill('a').join('.') })],
    ['a long path', m({ registerField: 'a'.repeat(201) })],
    ['a bad time path', m({ timeField: '.t' })],
    ['scale 0', m({ scale: 0 })],
    ['a negative scale', m({ scale: -1 })],
    ['scale NaN', m({ scale: Number.NaN })],
    ['an unknown unit', m({ unit: 'kg' as FieldMapping['unit'] })],
  ])('a mapping with %s is refused', (_, mapping) => {
    expect(applyFieldMapping({ total: 1 }, mapping)).toMatchObject({ ok: false, reason: 'mapping-invalid' });
  });

  it('a value beyond what a double holds once scaled is refused', () => {
    expect(applyFieldMapping({ total: 1e308 }, m({ unit: 'MWh' }))).toMatchObject({
      ok: false,
      reason: 'register-invalid',
    });
  });

  it.each([
    ['UTC', '2026-09-02T23:09:34Z', '2026-09-02T23:09:34.000Z'],
    ['an offset', '2026-09-03T02:09:34+03:00', '2026-09-02T23:09:34.000Z'],
    ['an offset with minutes', '2026-09-03T04:39:34+05:30', '2026-09-02T23:09:34.000Z'],
    ['nanoseconds', '2026-09-02T23:09:34.123456789Z', '2026-09-02T23:09:34.000Z'],
    ['Unix seconds', 1_788_390_574, '2026-09-02T23:09:34.000Z'],
  ])('the meter s time: %s', (_, time, iso) => {
    const r = applyFieldMapping({ total: 1, t: time }, m({ timeField: 't' }));
    expect(r.ok && r.register.meterTime?.toISOString()).toBe(iso);
  });

  it.each([
    ['no zone', '2026-09-02T23:09:34'],
    ['no such day', '2026-02-30T10:00:00Z'],
    ['milliseconds, not seconds', 1_788_390_574_000],
    ['text', 'yesterday'],
    ['a boolean', true],
  ])('a meter time with %s: undecoded', (_, time) => {
    expect(applyFieldMapping({ total: 1, t: time }, m({ timeField: 't' }))).toMatchObject({
      ok: false,
      reason: 'mapping-time-invalid',
    });
  });

  it('a missing time field: decoded without the meter s time, the LNS s time stands', () => {
    expect(applyFieldMapping({ total: 1 }, m({ timeField: 't' }))).toEqual({
      ok: true,
      register: { value: 1, unit: 'm3' },
      values: { total: 1 },
      alarms: [],
      problems: [{ field: 't', reason: 'time-field-missing' }],
    });
  });

  it('an object 100,000 levels deep does not blow the stack; the values kept stop 8 levels down', () => {
    let deep: Record<string, unknown> = { total: 3 };
    for (let i = 0; i < 100_000; i++) deep = { d: deep, [`n${i % 3}`]: i };
    const r = applyFieldMapping(deep, m({ registerField: 'd.d.n1' }));
    expect(r).toMatchObject({ ok: true, register: { value: 99_997 } });
    if (r.ok) expect(Object.keys(r.values)).toHaveLength(8);
  });

  it('an object with 100,000 members (more than an LNS body holds): 100 values kept, in time', () => {
    const huge: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) huge[`k${i}`] = i;
    const started = performance.now();
    const r = applyFieldMapping(huge, m({ registerField: 'k99999' }));
    // A bound far above what it takes, against a walk that is no longer linear.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r).toMatchObject({ ok: true, register: { value: 99_999 } });
    if (r.ok) expect(Object.keys(r.values)).toHaveLength(100);
  });

  it('long texts are cut and a member named __proto__ is left out of the values', () => {
    const object = JSON.parse(`{"total": 1, "note": "${'x'.repeat(500)}", "__proto__": 5}`);
    const r = applyFieldMapping(object, m());
    expect(r.ok && r.values).toEqual({ total: 1, note: 'x'.repeat(200) });
  });
});
