import { describe, expect, it } from 'vitest';
import { auditChanges, auditChangesText, auditFieldLabel, auditValueText } from './changes.js';

describe('auditChanges', () => {
  it('lists only the fields that differ, nested ones by path', () => {
    expect(
      auditChanges(
        { Username: 'jonas', FirstName: 'Jonas', Active: true, Rights: ['A'] },
        { Username: 'jonas', FirstName: 'Jonas P.', Active: false, Rights: ['A', 'B'] },
      ),
    ).toEqual([
      { field: 'FirstName', before: 'Jonas', after: 'Jonas P.' },
      { field: 'Active', before: true, after: false },
      { field: 'Rights', before: ['A'], after: ['A', 'B'] },
    ]);
    expect(auditChanges({ DeviceCode: 'A' }, { Old: { DeviceCode: 'A', RemovedAt: 'x' } })).toEqual([
      { field: 'DeviceCode', before: 'A', after: null },
      { field: 'Old.DeviceCode', before: null, after: 'A' },
      { field: 'Old.RemovedAt', before: null, after: 'x' },
    ]);
  });
  it('a creation lists the fields with a value; nothing changed lists nothing', () => {
    expect(auditChanges(null, { Code: 'K1', Name: null })).toEqual([{ field: 'Code', before: null, after: 'K1' }]);
    expect(auditChanges({ a: 1, b: [1] }, { b: [1], a: 1 })).toEqual([]);
  });
  it('labels fields in both languages, unknown ones by their own name', () => {
    expect(auditFieldLabel('Old.DeviceCode', 'lt')).toBe('Senas prietaisas: Serijos numeris');
    expect(auditFieldLabel('GroupId', 'en')).toBe('Group');
    expect(auditFieldLabel('Model', 'lt')).toBe('Modelis');
    expect(auditFieldLabel('Mystery', 'lt')).toBe('Mystery');
  });
});

describe('coded audit values', () => {
  it('names a month-end source, an anomaly state and a rule in the language; other values stay as they are', () => {
    expect(auditValueText('estimated', 'lt', 'Source')).toBe('įvertinta');
    expect(auditValueText('manual', 'en', 'PreviousSource')).toBe('manual');
    expect(auditValueText('acknowledged', 'lt', 'State')).toBe('patvirtinta');
    expect(auditValueText('SILENT', 'lt', 'Rule')).toBe('Nėra rodmenų');
    expect(auditValueText('estimated', 'lt', 'Comment')).toBe('estimated');
    expect(auditChangesText({ Source: 'estimated' }, { Source: 'manual' }, 'lt')).toBe('Šaltinis: įvertinta → rankinė');
    // A heat method's hot-water mode, not its code, on the Lithuanian audit log.
    expect(auditChangesText({ HotWaterHeat: null }, { HotWaterHeat: 'norm' }, 'lt')).toBe(
      'Karšto vandens šiluma: — → norma',
    );
  });
});
