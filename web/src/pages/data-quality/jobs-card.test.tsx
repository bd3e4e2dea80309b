import { GROUP, type Job, listJobs, runJob } from '@rodmenys/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { JobsCard } from './jobs-card';

const job = (Name: string, over: Partial<Job> = {}): Job => ({
  Name,
  NextRunAt: '2099-01-01T10:00:00+02:00',
  Running: false,
  LastStartedAt: '2026-11-01T10:00:00+02:00',
  LastFinishedAt: '2026-11-01T10:00:01+02:00',
  LastDurationMs: 1234,
  LastError: null,
  LastResult: { found: 3, opened: 1 },
  Runs: 5,
  Failures: 0,
  ...over,
});

/** A server whose "run now" makes the job due, and whose next list shows the run done, as the scheduler would. */
function server() {
  const jobs = [job('validate'), job('collectors', { LastResult: { silent: 0, silentConnections: 1, undecoded: 2 } })];
  let asked = 0;
  const api = stubApi([
    route(listJobs, () => jobs),
    route(runJob, (r) => {
      asked += 1;
      const name = r.path.split('/').at(-2)!;
      const found = jobs.find((j) => j.Name === name)!;
      found.NextRunAt = new Date(Date.now() - 1000).toISOString();
      return found;
    }),
  ]);
  return { api, jobs, asked: () => asked };
}

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the scheduled work with "run now"', { timeout: 90_000 }, () => {
  it('shows each job with its last run and runs one on demand, by keyboard, in the UI language', async () => {
    signIn(GROUP.operator);
    const { api, asked } = server();
    await render(<JobsCard />);
    const row = (await screen.findByText('Visas patikrinimas')).closest('tr') as HTMLElement;
    expect(row.textContent).toContain('1234 ms');
    const collectors = (await screen.findByText('Nutilę kolektoriai ir LoRaWAN jungtys')).closest('tr') as HTMLElement;
    expect(collectors.textContent).toContain('girdimi, bet neiššifruoti skaitikliai: 2');
    expect(collectors.textContent).toContain('nutilusios LoRaWAN jungtys: 1');

    const button = within(row).getByRole('button', { name: 'Vykdyti dabar: Visas patikrinimas' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(asked()).toBe(1));
    expect(api.sent.find((r) => r.method === 'POST')?.path).toBe('/api/data-quality/jobs/validate/run');
    expect(await screen.findByText(/Visas patikrinimas: užsakyta/)).toBeTruthy();
    // The list is read again: the job waits for the scheduler.
    expect(await within(row).findByText('laukia vykdymo')).toBeTruthy();
    expect(api.unanswered).toEqual([]);
  });
});
