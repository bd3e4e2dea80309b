import { DEVICE_TYPE, type DeviceRow, GROUP, getDeviceHistory, getDeviceTypeLookUp } from '@rodmenys/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { route, stubApi } from '../../test/api-stub';
import { signIn } from '../../test/fixtures';
import { render } from '../../test/render';
import { DeviceDialogs } from './device-dialogs';

const meter: DeviceRow = {
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
};

const api = (start: { Time: string; Value: number } | null) =>
  stubApi([
    route(getDeviceTypeLookUp, []),
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
