import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRemoteRegister } from '../../api/lifetime';

/**
 * The Devices page's building filter: the buildings of the caller's scope in address order, as the
 * remote-reading register lists them; empty means all buildings.
 */
export function BuildingFilter({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (buildingId: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const buildings = useRemoteRegister().data?.Buildings ?? [];
  return (
    <Select
      aria-label={t('lifetime.building')}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('lifetime.allBuildings')}
      style={{ minWidth: 260 }}
      value={value}
      onChange={(v) => onChange(v)}
      options={buildings.map((b) => ({ value: b.BuildingId, label: b.Address }))}
    />
  );
}
