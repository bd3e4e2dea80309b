import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import i18n, { changeLanguage } from '.';

describe('changeLanguage', () => {
  it('switches texts, remembers the choice, and keeps weeks starting on Monday in both languages', async () => {
    const sunday = '2026-11-22';
    expect(i18n.language).toBe('lt');
    expect(dayjs(sunday).startOf('week').format('YYYY-MM-DD')).toBe('2026-11-16');
    expect(dayjs(sunday).format('MMMM')).toBe('lapkritis');

    await changeLanguage('en');
    expect(i18n.t('nav.logout')).toBe('Log out');
    expect(localStorage.getItem('rodmenys.language')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(dayjs(sunday).startOf('week').format('YYYY-MM-DD')).toBe('2026-11-16');
    expect(dayjs(sunday).format('MMMM')).toBe('November');

    await changeLanguage('lt');
    expect(i18n.t('nav.logout')).toBe('Atsijungti');
  });
});
