import {
  DEVICE_TYPE,
  GROUP,
  getDeviceHistory,
  getDeviceTypeLookUp,
  type LorawanDecoderInfo,
  listLorawanDecoders,
  type MasterDevice,
  replaceDevice,
  updateDevice,
} from '@rodmenys/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { DeviceDialogs } from './device-dialogs';

const meter: MasterDevice = {
  DeviceId: 7,
  DeviceTypeId: DEVICE_TYPE.allocator,
  LocationId: 20,
  ParentLocationId: 10,
  Country: 'Lietuva',
  County: null,
  Region: null,
  City: 'Vilnius',
  Street: 'Architektų g.',
  Building: '3',
  Flat: '1',
  FlatOrder: 1,
  ObjectCode: null,
  ClientCode: null,
  DeviceCode: 'A-7',
  CounterCode: null,
  DeviceDescription: null,
  DataLoadProc: 'allocator',
  RatingFactor: 1.381,
  InstalledAt: '2025-01-01T00:00:00+02:00',
  RemovedAt: null,
  ReplacedBy: null,
  Replaces: null,
  LastSeen: '2026-11-20T10:00:00+02:00',
  Model: 'Q caloric 5.5',
  VerifiedOn: null,
  ReadMethod: null,
  ReadNow: 'manual',
  Role: null,
  VerificationDue: null,
  BatteryEnd: '2035-01-01',
  DevEui: null,
  Decoder: null,
};

const DECODERS: LorawanDecoderInfo[] = [
  {
    Id: 'axioma-qalcosonic-w1',
    Name: 'Axioma Qalcosonic W1',
    MeterType: 'water',
    FPorts: [100],
    RegisterUnit: 'm3',
  },
];

const api = (start: { Time: string; Value: number } | null) =>
  stubApi([
    route(getDeviceTypeLookUp, []),
    route(listLorawanDecoders, DECODERS),
    route(getDeviceHistory, {
      DeviceId: 7,
      DeviceTypeId: DEVICE_TYPE.allocator,
      DeviceCode: 'A-7',
      DataLoadProc: 'allocator',
      Bucket: 'hour',
      Start: start,
      Points: [],
    }),
  ]);

afterEach(() => vi.unstubAllGlobals());

// antd's first render under jsdom is slow on a busy machine.
describe('the replacement dialog', { timeout: 90_000 }, () => {
  it('shows the last reading and the unit of the readings (lt)', async () => {
    signIn(GROUP.operator);
    api({ Time: '2026-11-20T10:00:00+02:00', Value: 234.5 });
    await render(<DeviceDialogs dialog={{ kind: 'replace', device: meter }} onClose={() => {}} />);
    expect(await screen.findByText('Paskutinis rodmuo: 234,5 vnt., 2026-11-20 10:00')).toBeTruthy();
    expect(screen.getByLabelText('Galutinis rodmuo, vnt.')).toBeTruthy();
    expect(screen.getByLabelText('Pradinis rodmuo, vnt.')).toBeTruthy();
  });

  it('says when the device has sent nothing yet (en)', async () => {
    signIn(GROUP.operator);
    api(null);
    await render(<DeviceDialogs dialog={{ kind: 'remove', device: meter }} onClose={() => {}} />, { language: 'en' });
    expect(await screen.findByText('No reading received from this device yet')).toBeTruthy();
    expect(screen.getByLabelText('Final reading, units')).toBeTruthy();
  });
});

describe('the edit dialog: the model', { timeout: 90_000 }, () => {
  it('shows the driver of a known model, suggests the models of its kind, warns of an unknown one and saves it trimmed (en)', async () => {
    signIn(GROUP.operator);
    const { sent, unanswered } = stubApi([
      route(getDeviceTypeLookUp, []),
      route(listLorawanDecoders, DECODERS),
      route(updateDevice, (request) => ({ ...meter, Model: (request.body as { model: string | null }).model })),
    ]);
    await render(<DeviceDialogs dialog={{ kind: 'edit', device: meter }} onClose={() => {}} />, { language: 'en' });
    const input = (await screen.findByLabelText('Model')) as HTMLInputElement;
    expect(input.value).toBe('Q caloric 5.5');
    expect(screen.getByText('wmbusmeters driver: qcaloric')).toBeTruthy();
    // Suggestions: the allocators' models only.
    fireEvent.change(input, { target: { value: 'q ' } });
    expect(await screen.findByText('Q caloric (qcaloric)')).toBeTruthy();
    expect(screen.queryByText('Q water 5.5 (qwater)')).toBeNull();
    fireEvent.change(input, { target: { value: '  Sontex   868 ' } });
    expect(await screen.findByText('wmbusmeters driver: sontex868')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'Brand new 2000 ' } });
    expect(await screen.findByText(/Not a known model/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'PUT')).toBe(true));
    expect(sent.find((r) => r.method === 'PUT')!.body).toMatchObject({ model: 'Brand new 2000' });
    expect(unanswered).toEqual([]);
  });

  it('a replacement without a model: no driver shown, an unknown model warned, in Lithuanian (lt)', async () => {
    signIn(GROUP.operator);
    api(null);
    await render(<DeviceDialogs dialog={{ kind: 'replace', device: { ...meter, Model: null } }} onClose={() => {}} />);
    const input = (await screen.findByLabelText('Naujo prietaiso modelis')) as HTMLInputElement;
    expect(input.value).toBe('');
    expect(screen.queryByText(/wmbusmeters/)).toBeNull();
    fireEvent.change(input, { target: { value: 'Nežinomas' } });
    expect(await screen.findByText(/Nežinomas modelis/)).toBeTruthy();
  });
});

describe('the serial number and counter code', { timeout: 90_000 }, () => {
  it('refuses a line break, a space or ; in them before anything is sent, and takes a real meter id (lt)', async () => {
    signIn(GROUP.operator);
    const { sent } = stubApi([
      route(getDeviceTypeLookUp, []),
      route(listLorawanDecoders, DECODERS),
      route(updateDevice, (request) => ({
        ...meter,
        CounterCode: (request.body as { counterCode: string }).counterCode,
      })),
    ]);
    await render(<DeviceDialogs dialog={{ kind: 'edit', device: meter }} onClose={() => {}} />);
    const counter = (await screen.findByLabelText('Skaitiklio kodas')) as HTMLInputElement;
    for (const hostile of ['99887766\nshell=touch INJECTED', '9988 7766', '99887766;x', '99887766\u2028x']) {
      fireEvent.change(counter, { target: { value: hostile } });
      fireEvent.click(screen.getByRole('button', { name: 'Išsaugoti' }));
      expect(await screen.findByText(/Tik raidės, skaitmenys ir - \. _ \/ viduje/)).toBeTruthy();
    }
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);
    fireEvent.change(counter, { target: { value: 'QDS99887766' } });
    fireEvent.click(screen.getByRole('button', { name: 'Išsaugoti' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'PUT')).toBe(true));
    expect(sent.find((r) => r.method === 'PUT')!.body).toMatchObject({ counterCode: 'QDS99887766' });
  });
});

describe('the DevEUI and decoder of a LoRaWAN meter', { timeout: 90_000 }, () => {
  it('refuses 15 digits, a line break or a non-hex digit at the field before anything is sent, and saves one upper case with its decoder (en)', async () => {
    signIn(GROUP.operator);
    const { sent } = stubApi([
      route(getDeviceTypeLookUp, []),
      route(listLorawanDecoders, DECODERS),
      route(updateDevice, (request) => ({ ...meter, DevEui: (request.body as { devEui: string }).devEui })),
    ]);
    await render(<DeviceDialogs dialog={{ kind: 'edit', device: meter }} onClose={() => {}} />, { language: 'en' });
    const eui = (await screen.findByLabelText('DevEUI (LoRaWAN)')) as HTMLInputElement;
    const good = '70b3d5e75e001a2b';
    for (const hostile of [good.slice(1), `${good.slice(0, 8)}\n${good.slice(8, 15)}`, `${good.slice(0, 15)}g`]) {
      fireEvent.change(eui, { target: { value: hostile } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('A DevEUI is 16 hex digits (0–9, A–F)')).toBeTruthy();
    }
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);
    fireEvent.change(eui, { target: { value: ` ${good} ` } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'PUT')).toBe(true));
    expect(sent.find((r) => r.method === 'PUT')!.body).toMatchObject({ devEui: good.toUpperCase(), decoder: null });
  });

  it('a replacement keeps the old DevEUI only when the operator says the module moved (lt)', async () => {
    signIn(GROUP.operator);
    const old = { ...meter, DevEui: '70B3D5E75E001A2B' };
    const { sent } = stubApi([
      route(getDeviceTypeLookUp, []),
      route(listLorawanDecoders, DECODERS),
      route(getDeviceHistory, {
        DeviceId: 7,
        DeviceTypeId: DEVICE_TYPE.allocator,
        DeviceCode: 'A-7',
        DataLoadProc: 'allocator',
        Bucket: 'hour',
        Start: null,
        Points: [],
      }),
      route(replaceDevice, () => ({ Old: old, New: { ...meter, DeviceId: 8 } })),
    ]);
    await render(<DeviceDialogs dialog={{ kind: 'replace', device: old }} onClose={() => {}} />);
    const keep = await screen.findByRole('checkbox', { name: /palikti DevEUI 70B3D5E75E001A2B/ });
    expect(screen.getByLabelText('Naujo prietaiso DevEUI (LoRaWAN)')).toBeTruthy();
    fireEvent.click(keep);
    // Kept: no field for a new one.
    await waitFor(() => expect(screen.queryByLabelText('Naujo prietaiso DevEUI (LoRaWAN)')).toBeNull());
    fireEvent.change(screen.getByLabelText('Galutinis rodmuo, vnt.'), { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText('Naujo prietaiso numeris'), { target: { value: 'A-8' } });
    fireEvent.change(screen.getByLabelText('Pradinis rodmuo, vnt.'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Išsaugoti' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    const body = sent.find((r) => r.method === 'POST')!.body as Record<string, unknown>;
    expect(body.keepDevEui).toBe(true);
    expect(body).not.toHaveProperty('newDevEui');
  });
});
