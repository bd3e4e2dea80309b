import { DEVICE_TYPE, LOCATION_LEVEL } from '@rodmenys/contract';
import { screen } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { render } from '../../test/render';
import { RoleField, typeFitsLevel } from './device-role-field';

// A building-level device's role in the heat split (docs/heat-method.md, "Devices").
describe('the device role field', { timeout: 90_000 }, () => {
  it('offers a hot-water meter on a building (as its input meter) and keeps a flat’s types', () => {
    const onBuilding = [1, 2, 3, 4, 11].filter((ty) => typeFitsLevel(ty, LOCATION_LEVEL.building));
    const onFlat = [1, 2, 3, 4, 11].filter((ty) => typeFitsLevel(ty, LOCATION_LEVEL.flat));
    expect(onBuilding).toEqual([DEVICE_TYPE.hotWaterMeter, DEVICE_TYPE.buildingHeatMeter]);
    expect(onFlat).toEqual([1, 2, 3, 4]);
  });

  it('shows the role for a hot-water meter on a building, in the UI language, and nothing on a flat', async () => {
    const { unmount } = await render(
      <Form>
        <RoleField typeId={DEVICE_TYPE.hotWaterMeter} level={LOCATION_LEVEL.building} />
      </Form>,
    );
    expect(await screen.findByLabelText('Paskirtis šilumos paskirstyme')).toBeTruthy();
    unmount();
    await render(
      <Form>
        <RoleField typeId={DEVICE_TYPE.hotWaterMeter} level={LOCATION_LEVEL.flat} />
        <RoleField typeId={DEVICE_TYPE.coldWaterMeter} level={LOCATION_LEVEL.building} />
      </Form>,
      { language: 'en' },
    );
    expect(screen.queryByText('Role in the heat split')).toBeNull();
  });
});
