import {
  createLnsConnection,
  createLorawanMapping,
  GROUP,
  getLnsConnectionHealth,
  getLocationTree,
  getLorawanDeviceHealth,
  type LnsConnection,
  type LnsConnectionHealth,
  LOCATION_LEVEL,
  listLnsConnections,
  listLorawanDevices,
  listLorawanMappings,
  listLorawanUnmatched,
} from '@rodmenys/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import LorawanPage from './lorawan-page';

const connection: LnsConnection = {
  Id: 3,
  Kind: 'chirpstack',
  Name: 'ChirpStack Kaunas',
  Prefix: 'rml_ab12',
  Locations: [{ Id: 10, Label: 'Kaunas, Laisvės al. 5', Level: LOCATION_LEVEL.building }],
  CreatedAt: '2026-11-30T10:00:00+02:00',
  CreatedBy: 'operator',
  LastUsedAt: null,
  KeySince: '2026-11-30T10:00:00+02:00',
  EndpointPath: '/api/lorawan/chirpstack',
};

const health: LnsConnectionHealth = {
  Id: 3,
  Name: 'ChirpStack Kaunas',
  Kind: 'chirpstack',
  LastEvent: '2026-12-07T09:00:00+02:00',
  Silent: false,
  UplinksPerDay: [
    { Day: '2026-12-06', Count: 48 },
    { Day: '2026-12-07', Count: 20 },
  ],
  EventsLast24h: { up: 60, status: 2, log: 1 },
  Expected: 4,
  DevicesHeard: 3,
  Unmatched: 1,
  Gateways: [{ GatewayId: '0016c001ff10a235', LastSeen: '2026-12-07T09:00:00+02:00', Devices: 3, Uplinks: 60 }],
  CodecErrors: [],
  CodecErrorsLast24h: 0,
  Undecoded: [{ DeviceId: 9, DevEui: '70B3D5E75E001A2B', Reason: 'wrong-length', Uplinks: 5 }],
  ClockOff: [],
};

const page = { Data: [], Total: 0, From: 0, To: 0, PerPage: 20, CurrentPage: 1, LastPage: 1 };

/** The page's server; `extra` routes come first, so they can answer in place of these. */
const stub = (extra: Parameters<typeof stubApi>[0] = []) =>
  stubApi([
    ...extra,
    route(listLnsConnections, [connection]),
    route(getLnsConnectionHealth, health),
    route(listLorawanDevices, page),
    route(listLorawanUnmatched, page),
    route(listLorawanMappings, []),
    route(getLocationTree, [
      { Id: 5, ParentId: null, Level: LOCATION_LEVEL.street, Name: 'Laisvės al.', FlatOrder: null },
      { Id: 10, ParentId: 5, Level: LOCATION_LEVEL.building, Name: '5', FlatOrder: null },
    ]),
  ]);

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the LoRaWAN page', { timeout: 120_000 }, () => {
  it('adds a connection: the key is shown once with the address and header, then the focus is back on Add (en)', async () => {
    signIn(GROUP.operator);
    const { sent } = stub([
      route(createLnsConnection, (request) => ({
        ...connection,
        Id: 4,
        Kind: 'tts' as const,
        Name: (request.body as { name: string }).name,
        EndpointPath: '/api/lorawan/tts/uplink',
        Key: 'rml_secretsecretsecret',
      })),
    ]);
    await render(<LorawanPage />, { language: 'en' });
    const add = await screen.findByRole('button', { name: 'Add a network server' });
    add.focus();
    fireEvent.click(add);
    fireEvent.mouseDown(await screen.findByLabelText('Network server'));
    fireEvent.click(await screen.findByTitle('The Things Stack'));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' TTN Kaunas ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')!.body).toEqual({ kind: 'tts', name: 'TTN Kaunas', locationIds: [] });
    expect(await screen.findByDisplayValue('rml_secretsecretsecret')).toBeTruthy();
    expect(screen.getByText(`${window.location.origin}/api/lorawan/tts/uplink`)).toBeTruthy();
    expect(screen.getByText('X-Rodmenys-Key: rml_secretsecretsecret')).toBeTruthy();
    const dialog = screen.getByRole('dialog', { name: 'Key of TTN Kaunas' });
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(document.activeElement).toBe(add));
  });

  it("opens a connection's health: gateways, an undecoded device's reason in Lithuanian (lt)", async () => {
    signIn(GROUP.operator);
    const { unanswered } = stub();
    await render(<LorawanPage />);
    expect(await screen.findByText('ChirpStack Kaunas')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'ChirpStack Kaunas būklė' }));
    expect(await screen.findByText('0016c001ff10a235')).toBeTruthy();
    expect(screen.getByText('netinkamo ilgio turinys')).toBeTruthy();
    expect(screen.getByRole('img', { name: /iš viso 68, šiandien 20/ })).toBeTruthy();
    expect(unanswered).toEqual([]);
  });

  it('refuses a scale of 0 or above 10⁹ at the field and sends nothing; a good one is sent as typed (lt)', async () => {
    signIn(GROUP.operator);
    const { sent } = stub([
      route(createLorawanMapping, (request) => {
        const b = request.body as { model: string; valueField: string; unit: 'm3'; scale: number };
        return {
          Id: 1,
          Model: b.model,
          ValueField: b.valueField,
          Unit: b.unit,
          Scale: b.scale,
          TimeField: null,
          UpdatedAt: '2026-12-07T10:00:00+02:00',
          UpdatedBy: 'operator',
        };
      }),
    ]);
    await render(<LorawanPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pridėti susiejimą' }));
    fireEvent.change(await screen.findByLabelText('Modelis'), { target: { value: 'Kamstrup 403' } });
    fireEvent.change(screen.getByLabelText('Rodmens laukas'), { target: { value: 'meter.volume' } });
    const scale = screen.getByLabelText('Mastelis');
    for (const wrong of ['0', '2000000000']) {
      fireEvent.change(scale, { target: { value: wrong } });
      fireEvent.click(screen.getByRole('button', { name: 'Išsaugoti' }));
      expect(await screen.findByText(/Mastelis turi būti didesnis už 0/)).toBeTruthy();
      // What was typed stays in the field.
      expect((scale as HTMLInputElement).value.replace(/\s/g, '')).toBe(wrong);
    }
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(scale, { target: { value: '0,001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Išsaugoti' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')!.body).toMatchObject({ scale: 0.001, valueField: 'meter.volume' });
  });

  it("opens a device's radio health: its gateways with their signal, its uplinks' alarms by name (en)", async () => {
    signIn(GROUP.operator);
    const row = {
      DeviceId: 9,
      DevEui: '70B3D5E75E001A2B',
      DeviceCode: 'W1-0042',
      Model: 'Qalcosonic W1',
      Decoder: null,
      Address: 'Kaunas, Laisvės al. 5-12',
      LastUplink: '2026-12-07T09:00:00+02:00',
      Rssi: -97,
      Snr: 6.5,
      LostLast30d: 0,
      BatteryLevel: null,
      LastReason: null,
    };
    const { unanswered } = stub([
      route(listLorawanDevices, { ...page, Data: [row], Total: 1, From: 1, To: 1 }),
      route(getLorawanDeviceHealth, {
        DeviceId: 9,
        DevEui: row.DevEui,
        Decoder: null,
        EffectiveDecoder: 'axioma-qalcosonic-w1',
        LastUplink: row.LastUplink,
        LastFCnt: 41,
        Rssi: -97,
        Snr: 6.5,
        Gateways: [{ GatewayId: '0016c001ff10a235', LastSeen: row.LastUplink, Rssi: -97, Snr: 6.5, Uplinks: 14 }],
        UplinksPerDay: [{ Day: '2026-12-07', Count: 1 }],
        LostLast30d: 0,
        Battery: null,
        ClockSkewSeconds: 12,
        ClockFlag: null,
        Uplinks: [
          {
            ReceivedAt: row.LastUplink,
            MeterTime: '2026-12-07T08:59:48+02:00',
            FCnt: 41,
            FPort: 100,
            Payload: '01',
            Connection: 'ChirpStack Kaunas',
            Decoder: 'axioma-qalcosonic-w1',
            Value: 6.054,
            Values: {},
            Alarms: ['LEAK', 'LOW_BATTERY'],
            Reason: null,
            Rssi: -97,
            Snr: 6.5,
          },
        ],
      }),
    ]);
    await render(<LorawanPage />, { language: 'en' });
    fireEvent.click(await screen.findByRole('button', { name: 'Radio health of 70B3D5E75E001A2B' }));
    const gateways = await screen.findByRole('region', { name: 'Gateways' });
    expect(within(gateways).getByText('0016c001ff10a235')).toBeTruthy();
    expect(within(gateways).getByText('-97 dBm')).toBeTruthy();
    expect(screen.getByText('Leak')).toBeTruthy();
    expect(screen.getByText('Battery low')).toBeTruthy();
    expect(unanswered).toEqual([]);
  });
});
