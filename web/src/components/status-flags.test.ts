import type { ReadingFlag } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import i18n, { changeLanguage } from '../i18n';
import { meterStatus, meterStatusText } from './status-flags';

const row = (Flags: ReadingFlag[], StatusFlags: string[] = []) => ({ Flags, StatusFlags });

describe('meterStatus', () => {
  it('never says OK for a row flagged NO_READING or STALE', () => {
    expect(meterStatus(row([]))).toEqual({ kind: 'ok' });
    expect(meterStatus(row(['NEGATIVE']))).toEqual({ kind: 'ok' });
    expect(meterStatus(row(['NO_READING']))).toEqual({ kind: 'silent' });
    expect(meterStatus(row(['STALE', 'NEGATIVE']))).toEqual({ kind: 'silent' });
    expect(meterStatus(row(['STALE'], ['LEAK']))).toEqual({ kind: 'flags', flags: ['LEAK'] });
  });

  it('spells the status in the UI language, as the table and the export show it', async () => {
    await changeLanguage('lt');
    const t = i18n.t.bind(i18n);
    expect(meterStatusText(row([]), t)).toBe('Gerai');
    expect(meterStatusText(row(['NO_READING']), t)).toBe('Nežinoma');
    expect(meterStatusText(row([], ['POWER_LOW', 'X_NEW']), t)).toBe('Senka baterija, X_NEW');
    await changeLanguage('en');
    expect(meterStatusText(row(['STALE']), i18n.t.bind(i18n))).toBe('Unknown');
  });
});
