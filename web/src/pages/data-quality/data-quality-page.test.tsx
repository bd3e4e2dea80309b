import {
  type Anomaly,
  acknowledgeAnomaly,
  countAnomalies,
  DEVICE_TYPE,
  GROUP,
  getDeviceTypeLookUp,
  listAnomalies,
  RULE_CODES,
} from '@rodmenys/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import DataQualityPage from './data-quality-page';

const anomaly = (overrides: Partial<Anomaly> & Pick<Anomaly, 'Id'>): Anomaly => ({
  Rule: 'SILENT',
  State: 'open',
  BuildingId: 100,
  Address: 'Vilnius, Architektų g. 3',
  DeviceId: 500 + overrides.Id,
  DeviceCode: `A-${overrides.Id}`,
  DeviceTypeId: DEVICE_TYPE.allocator,
  Flat: '1',
  Month: null,
  Evidence: { lastReadingAt: '2026-10-01T10:00:00+03:00', limitDays: 3 },
  OpenedAt: '2026-10-05T10:00:00+03:00',
  LastSeenAt: '2026-11-20T10:00:00+02:00',
  ResolvedAt: null,
  AcknowledgedAt: null,
  AcknowledgedBy: null,
  Comment: null,
  ...overrides,
});

/**
 * A server that keeps the anomalies and changes them on acknowledgement, as the real one does; with
 * `refuseAcknowledging` it does not know the acknowledgement (404, as for an anomaly gone meanwhile).
 */
function server({ refuseAcknowledging = false } = {}) {
  const anomalies = [anomaly({ Id: 1 }), anomaly({ Id: 2, Rule: 'NEGATIVE', Flat: '2', State: 'resolved' })];
  const api = stubApi([
    route(getDeviceTypeLookUp, [
      {
        Id: DEVICE_TYPE.allocator,
        DeviceTypeCode: 'HCA',
        DeviceTypeName: 'Daliklis',
        DeviceTypeNameEn: 'Allocator',
        DeviceCategoryCode: 'heat',
        DataLoadProc: 'allocator',
      },
    ]),
    route(listAnomalies, () => anomalies),
    route(countAnomalies, () => [
      {
        BuildingId: 100,
        Address: 'Vilnius, Architektų g. 3',
        Rule: 'SILENT' as const,
        Open: anomalies.filter((a) => a.Rule === 'SILENT' && a.State === 'open').length,
        Acknowledged: anomalies.filter((a) => a.Rule === 'SILENT' && a.State === 'acknowledged').length,
        Resolved: 0,
      },
    ]),
    ...(refuseAcknowledging ? [] : [acknowledgeRoute(anomalies)]),
  ]);
  return api;
}

function acknowledgeRoute(anomalies: Anomaly[]) {
  return route(acknowledgeAnomaly, (r) => {
    const id = Number(r.path.split('/').at(-2));
    const found = anomalies.find((a) => a.Id === id) as Anomaly;
    Object.assign(found, {
      State: 'acknowledged',
      Comment: (r.body as { comment: string }).comment,
      AcknowledgedBy: 'Ona Onaitė',
      AcknowledgedAt: '2026-11-25T10:00:00+02:00',
    });
    return found;
  });
}

/** The list's row of the device `code` ("A-1 (Daliklis)"). */
const listRow = async (code: string) => (await screen.findByText(new RegExp(`^${code} `))).closest('tr') as HTMLElement;

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the data-quality page', { timeout: 90_000 }, () => {
  it('lists the anomalies in scope with their counts, without the operator panels for a manager', async () => {
    signIn(GROUP.user);
    const api = server();
    await render(<DataQualityPage />, { route: '/anomalies' });
    const open = await listRow('A-1');
    expect(within(open).getByText('Atvira')).toBeTruthy();
    expect(within(open).getByRole('button', { name: 'Patvirtinti' })).toBeTruthy();
    const resolved = await listRow('A-2');
    expect(within(resolved).queryByRole('button', { name: 'Patvirtinti' })).toBeNull();
    expect(api.sent.some((r) => r.path === '/api/data-quality/anomalies/counts')).toBe(true);
    // The settings, degree-days and jobs are the operator's.
    expect(api.sent.some((r) => r.path.startsWith('/api/data-quality/settings'))).toBe(false);
    expect(api.unanswered).toEqual([]);
  });

  it('acknowledges an anomaly with the comment, and shows it acknowledged', async () => {
    signIn(GROUP.user);
    const api = server();
    await render(<DataQualityPage />, { route: '/anomalies' });
    const row = await listRow('A-1');
    await userEvent.click(within(row).getByRole('button', { name: 'Patvirtinti' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Komentaras'), 'Gyventojai išvykę');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Patvirtinti' }));
    await waitFor(() =>
      expect(api.sent.find((r) => r.method === 'POST')).toMatchObject({
        path: '/api/data-quality/anomalies/1/acknowledge',
        body: { comment: 'Gyventojai išvykę' },
      }),
    );
    await waitFor(async () => expect(within(await listRow('A-1')).getByText('Gyventojai išvykę')).toBeTruthy());
    expect(api.unanswered).toEqual([]);
  });

  it('keeps the dialog open with the comment and says why when the acknowledgement is refused', async () => {
    signIn(GROUP.user);
    const api = server({ refuseAcknowledging: true });
    await render(<DataQualityPage />, { route: '/anomalies' });
    await userEvent.click(within(await listRow('A-1')).getByRole('button', { name: 'Patvirtinti' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Komentaras'), 'Gyventojai išvykę');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Patvirtinti' }));
    // Said in the dialog, announced; what was typed stays for another try.
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Nerasta');
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect((within(dialog).getByLabelText('Komentaras') as HTMLTextAreaElement).value).toBe('Gyventojai išvykę');
    expect(within(await listRow('A-1')).getByText('Atvira')).toBeTruthy();
    expect(api.unanswered).toEqual(['POST /api/data-quality/anomalies/1/acknowledge']);
  });

  it("shows a silent LoRaWAN connection's anomaly with its evidence, and filters by its rule by keyboard (en)", async () => {
    signIn(GROUP.user);
    const silent = anomaly({
      Id: 7,
      Rule: 'LNS_SILENT',
      DeviceId: null,
      DeviceCode: null,
      DeviceTypeId: null,
      Flat: null,
      Evidence: {
        connection: 'Miesto ChirpStack',
        buildings: ['Klaipėda, Liepų g. 7', 'Klaipėda, Tiltų g. 1'],
        lastContact: null,
        limitMinutes: 60,
      },
    });
    const api = stubApi([
      route(getDeviceTypeLookUp, []),
      route(listAnomalies, (r) => (!r.query.get('rule') || r.query.get('rule') === 'LNS_SILENT' ? [silent] : [])),
      route(countAnomalies, []),
    ]);
    await render(<DataQualityPage />, { route: '/anomalies', language: 'en' });
    const row = (await screen.findByText('LoRaWAN connection silent')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Details' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('LoRaWAN connection')).toBeTruthy();
    expect(within(drawer).getByText('Miesto ChirpStack')).toBeTruthy();
    expect(within(drawer).getByText('Klaipėda, Liepų g. 7, Klaipėda, Tiltų g. 1')).toBeTruthy();

    await userEvent.keyboard('{Escape}');
    const filter = screen.getByRole('combobox', { name: 'Rule' });
    filter.focus();
    // Opened with the first rule active, down to this one (its place in RULE_CODES), taken with Enter.
    fireEvent.keyDown(filter, { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 });
    for (let i = 0; i < RULE_CODES.indexOf('LNS_SILENT'); i++)
      fireEvent.keyDown(filter, { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 });
    fireEvent.keyDown(filter, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(
        api.sent.some((r) => r.path === '/api/data-quality/anomalies' && r.query.get('rule') === 'LNS_SILENT'),
      ).toBe(true),
    );
    // A building's anomaly has no device: nothing was asked about one.
    expect(api.unanswered).toEqual([]);
  });
});
