import { describe, expect, it } from 'vitest';
import i18n, { changeLanguage } from '../../i18n';
import { evidenceEntries, evidenceText } from './evidence';

// The evidence the validation rules record (server/src/services/data-quality/validate.ts), read
// by a person: names in the UI language, no JSON, no English key in the Lithuanian screen.
describe('anomaly evidence', () => {
  it('names every fact and writes values for people, in Lithuanian', async () => {
    await changeLanguage('lt');
    const t = i18n.t.bind(i18n);
    expect(evidenceEntries({ lastSeen: '2026-03-01T10:00:00+02:00', limitDays: 3 }, t)).toEqual([
      ['Paskutinis rodmuo', '2026-03-01 10:00'],
      ['Riba, dienų', '3'],
    ]);
    expect(
      evidenceText(
        {
          previous: { time: '2026-03-01T00:00:00+02:00', value: 10 },
          reading: { time: '2026-03-02T00:00:00+02:00', value: 9000.5 },
          next: null,
          count: 1,
        },
        t,
      ),
    ).toBe('Ankstesnis rodmuo: 2026-03-01 00:00 — 10; Rodmuo: 2026-03-02 00:00 — 9000.500; Kartų laikotarpyje: 1');
    expect(evidenceText({ flags: ['LEAK'], share: 0.125, ratio: 2.5 }, t)).toBe(
      `Skaitiklio būsena: ${t('statusFlags.LEAK')}; Dalis: 12.5 %; Santykis: × 2.500`,
    );
  });

  it('has a name in both languages for every key the rules write', async () => {
    const keys = [
      'lastSeen',
      'limitDays',
      'flags',
      'since',
      'value',
      'previous',
      'reading',
      'next',
      'count',
      'declarationId',
      'max',
      'photoId',
      // A silent collector's and a silent LoRaWAN connection's (COLLECTOR_SILENT, LNS_SILENT).
      'collector',
      'connection',
      'buildings',
      'lastContact',
      'limitMinutes',
    ];
    const more = ['consumption', 'reference', 'lastYear', 'average3', 'ratio', 'building', 'flats', 'flatMeters'];
    for (const language of ['lt', 'en'] as const) {
      await changeLanguage(language);
      for (const key of [...keys, ...more, 'share', 'estimated', 'total'])
        expect(i18n.exists(`anomalies.evidenceKeys.${key}`), `${language} ${key}`).toBe(true);
    }
    await changeLanguage('lt');
  });

  it('names every alarm the LoRaWAN decoders raise in both languages (docs/lorawan.md, "Alarms")', async () => {
    const alarms = ['LEAK', 'BURST', 'BACKFLOW', 'LOW_BATTERY', 'PERMANENT_ERROR', 'TEMPORARY_ERROR', 'DRY'];
    for (const language of ['lt', 'en'] as const) {
      await changeLanguage(language);
      for (const flag of [...alarms, 'LOW_TEMPERATURE', 'ERROR_FLAGS'])
        expect(i18n.exists(`statusFlags.${flag}`), `${language} ${flag}`).toBe(true);
    }
    await changeLanguage('lt');
  });
});
