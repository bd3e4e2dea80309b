import { screen } from '@testing-library/react';
import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { afterAll, describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n';
import { render } from '../test/render';

const weekdayHeaders = () =>
  screen
    .getAllByRole('columnheader')
    .map((th) => th.textContent)
    .slice(0, 7);

// The app's providers pick antd's locale from the UI language. antd's first render
// under jsdom is slow on a busy machine.
describe('calendars follow the language and start on Monday', { timeout: 30_000 }, () => {
  afterAll(() => changeLanguage('lt'));
  it('Lithuanian', async () => {
    await render(<DatePicker open defaultPickerValue={dayjs('2026-11-22')} />, { language: 'lt' });
    expect(weekdayHeaders()).toEqual(['p', 'a', 't', 'k', 'pn', 'š', 's']); // pirmadienis … sekmadienis
  });
  it('English', async () => {
    await render(<DatePicker open defaultPickerValue={dayjs('2026-11-22')} />, { language: 'en' });
    expect(weekdayHeaders()).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
  });
});
