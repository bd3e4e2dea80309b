import { type DeviceRole, isBuildingDevice, LOCATION_LEVEL, rolesOfType } from '@rodmenys/contract';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/*
 * A building-level device's role in the heat split (docs/heat-method.md, "Devices"): in the add
 * form on a building, the hot-water input meter (a hot-water meter, which on a building must have
 * it) or the hot-water heat meter (a building heat meter, optional).
 */

/** The device types that may be added at a level: a hot-water meter on a building too, as its input meter. */
export const typeFitsLevel = (typeId: number, level: number): boolean =>
  level === LOCATION_LEVEL.building
    ? isBuildingDevice(typeId) || rolesOfType(typeId).length > 0
    : !isBuildingDevice(typeId);

/** The role field of the add form on a building: shown when the chosen type has roles. */
export function RoleField({ typeId, level }: { typeId: number | undefined; level: number }) {
  const { t } = useTranslation();
  if (level !== LOCATION_LEVEL.building || typeId === undefined) return null;
  const roles = rolesOfType(typeId);
  if (!roles.length) return null;
  // A type that is not a building device by itself is on the building only in its role.
  const needed = !isBuildingDevice(typeId);
  return (
    <Form.Item
      name="role"
      label={t('masterData.device.role')}
      extra={t('masterData.device.roleHelp')}
      rules={needed ? [{ required: true, message: t('masterData.device.required') }] : []}
    >
      <Select
        allowClear={!needed}
        placeholder={t('masterData.device.roleNone')}
        options={roles.map((r: DeviceRole) => ({ value: r, label: t(`masterData.device.roles.${r}`) }))}
      />
    </Form.Item>
  );
}
