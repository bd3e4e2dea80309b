import { render, screen } from '@testing-library/react';
import { ConfigProvider, DatePicker } from 'antd';
import enGB from 'antd/locale/en_GB';
import ltLT from 'antd/locale/lt_LT';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n';

const weekdayHeaders = () =>
  screen
    .getAllByRole('columnheader')
    .map((th) => th.textContent)
    .slice(0, 7);

// antd's first render under jsdom is slow on a busy machine.
describe('calendars follow the language and start on Monday', { timeout: 30_000 }, () => {
  it('Lithuanian', async () => {
    await changeLanguage('lt');
    render(
      <ConfigProvider locale={ltLT}>
        <DatePicker open defaultPickerValue={dayjs('2026-11-22')} />
      </ConfigProvider>,
    );
    expect(weekdayHeaders()).toEqual(['p', 'a', 't', 'k', 'pn', 'š', 's']); // pirmadienis … sekmadienis
  });
  it('English', async () => {
    await changeLanguage('en');
    render(
      <ConfigProvider locale={enGB}>
        <DatePicker open defaultPickerValue={dayjs('2026-11-22')} />
      </ConfigProvider>,
    );
    expect(weekdayHeaders()).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    await changeLanguage('lt');
  });
});
