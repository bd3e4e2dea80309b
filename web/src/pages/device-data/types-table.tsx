import type { DeviceTypeInSelection } from '@rodmenys/contract';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n';

interface TypesTableProps {
  types: readonly DeviceTypeInSelection[];
  loading: boolean;
  selected: number | null;
  onPick: (type: DeviceTypeInSelection) => void;
}

/** The device types found in the selection: code, name, category and device count; a click, Enter or Space picks one. */
export function TypesTable({ types, loading, selected, onPick }: TypesTableProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Table<DeviceTypeInSelection>
      size="small"
      rowKey="Id"
      loading={loading}
      dataSource={types as DeviceTypeInSelection[]}
      pagination={false}
      locale={{ emptyText: t('deviceData.types.empty') }}
      rowClassName={(type) => `clickable-row${type.Id === selected ? ' picked-row' : ''}`}
      onRow={(type) => ({
        onClick: () => onPick(type),
        // A row is picked with the keyboard as with the mouse: Tab to it, Enter or Space.
        tabIndex: 0,
        onKeyDown: (event) => {
          if (event.key !== 'Enter' && event.key !== ' ') return;
          event.preventDefault();
          onPick(type);
        },
        'aria-selected': type.Id === selected,
      })}
      columns={[
        { key: 'code', title: t('deviceData.types.code'), dataIndex: 'DeviceTypeCode', width: 110 },
        {
          key: 'name',
          title: t('deviceData.types.name'),
          render: (_, type) => (language === 'en' ? type.DeviceTypeNameEn : type.DeviceTypeName),
        },
        { key: 'category', title: t('deviceData.types.category'), dataIndex: 'DeviceCategoryCode', width: 130 },
        { key: 'count', title: t('deviceData.types.count'), dataIndex: 'DeviceCount', width: 120, align: 'right' },
      ]}
    />
  );
}
