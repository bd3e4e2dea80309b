import { type BillingDelivery, listBillingDeliveries } from '@rodmenys/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { render } from '../../test/render';
import { Deliveries } from './deliveries';

const attempt = (a: Partial<BillingDelivery['Attempts'][number]>): BillingDelivery['Attempts'][number] => ({
  At: '2026-11-20T10:00:00+02:00',
  Status: null,
  Reason: 'connectionRefused',
  Response: null,
  Error: 'connection refused',
  DurationMs: 3,
  ...a,
});

const delivery: BillingDelivery = {
  Id: 17,
  ReceiverId: 1,
  ReceiverName: 'ERP',
  Month: '2026-10',
  Version: 2,
  BuildingIds: [1204],
  CreatedAt: '2026-11-20T09:59:00+02:00',
  State: 'pending',
  NextAttemptAt: '2026-11-20T10:30:00+02:00',
  Attempts: [
    attempt({ At: '2026-11-20T10:00:00+02:00', Reason: 'connectionRefused' }),
    attempt({ At: '2026-11-20T10:01:00+02:00', Reason: 'timedOut', Error: 'timed out' }),
    attempt({ At: '2026-11-20T10:03:00+02:00', Reason: 'tlsError', Error: 'TLS error' }),
    attempt({
      At: '2026-11-20T10:07:00+02:00',
      Status: 503,
      Reason: 'httpStatus',
      Response: 'Service Unavailable',
      Error: 'HTTP 503',
    }),
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('the delivery log (GET /integrations/deliveries)', () => {
  for (const [language, texts] of [
    [
      'lt',
      [
        'Ryšys atmestas',
        'Neatsakė per 10 s',
        'TLS klaida (sertifikatas ar šifravimas)',
        'Atsakė HTTP 503 · Service Unavailable',
      ],
    ],
    [
      'en',
      [
        'Connection refused',
        'Timed out (no answer in 10 s)',
        'TLS error (certificate or encryption)',
        'Answered HTTP 503 · Service Unavailable',
      ],
    ],
  ] as const) {
    it(`says why each attempt failed in the reader's language (${language}), never the server's English`, async () => {
      const api = stubApi([route(listBillingDeliveries, { Deliveries: [delivery] })]);
      await render(<Deliveries />, { language });
      const row = (await screen.findByText('ERP')).closest('tr')!;
      await userEvent.click(within(row).getByRole('button'));
      const attempts = await screen.findAllByRole('row');
      const shown = attempts.map((r) => r.textContent ?? '').join('\n');
      for (const text of texts) expect(shown).toContain(text);
      if (language === 'lt')
        for (const english of ['connection refused', 'timed out', 'fetch failed']) expect(shown).not.toContain(english);
      expect(api.unanswered).toEqual([]);
    });
  }
});
