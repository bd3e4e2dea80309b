import { GROUP, listDegreeDays } from '@rodmenys/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../i18n/en.json';
import lt from '../../i18n/lt.json';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { DegreeDaysCard } from './degree-days-card';

const year = new Date().getFullYear();
const city = { Id: 1, Name: 'Vilnius', Region: null };

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the degree-day table', { timeout: 90_000 }, () => {
  it('says what missing degree-days mean, and names a month in the UI language', async () => {
    signIn(GROUP.operator);
    stubApi([route(listDegreeDays, { Cities: [city], Values: [] })]);
    await render(<DegreeDaysCard />, { language: 'en' });
    const none = en.degreeDays.noneForYear.replaceAll('{{year}}', String(year)).replace('{{next}}', String(year + 1));
    expect(await screen.findByText(none)).toBeTruthy();
    expect(screen.getByText(en.degreeDays.missingNote)).toBeTruthy();
    // The empty cell is named "– (not entered)", with the month by its name.
    const october = screen.getByRole('button', { name: `– (not entered): degree-days of Vilnius, October ${year}` });
    await userEvent.click(october);
    expect(await screen.findByText(`Degree-days of Vilnius, October ${year}`)).toBeTruthy();
  });

  it('says nothing is missing when every month has a value (lt)', async () => {
    signIn(GROUP.operator);
    const Values = Array.from({ length: 12 }, (_, i) => ({
      CityId: 1,
      Month: `${year}-${String(i + 1).padStart(2, '0')}`,
      Value: 100.5,
    }));
    stubApi([route(listDegreeDays, { Cities: [city], Values })]);
    await render(<DegreeDaysCard />, { language: 'lt' });
    expect((await screen.findAllByText('100,5')).length).toBe(12);
    expect(screen.queryByText(lt.degreeDays.missingNote)).toBeNull();
  });
});
