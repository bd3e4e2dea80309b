import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TreeNode } from './location-tree';

interface LocationTreeSelectProps {
  nodes: TreeNode[];
  value: string[];
  onChange: (value: string[]) => void;
  loading: boolean;
}

/**
 * The building > flat > device tree: several picks, a ticked branch stands for
 * its whole subtree (SHOW_PARENT), virtual scrolling and search for thousands of flats.
 */
export function LocationTreeSelect({ nodes, value, onChange, loading }: LocationTreeSelectProps) {
  const { t } = useTranslation();
  return (
    <TreeSelect<string[]>
      aria-label={t('deviceData.tree.label')}
      style={{ width: '100%' }}
      treeData={nodes}
      value={value}
      onChange={(next) => onChange(next ?? [])}
      treeCheckable
      showCheckedStrategy={TreeSelect.SHOW_PARENT}
      showSearch
      treeNodeFilterProp="title"
      virtual
      listHeight={360}
      maxTagCount="responsive"
      allowClear
      loading={loading}
      placeholder={t('deviceData.tree.placeholder')}
      notFoundContent={t('deviceData.tree.empty')}
    />
  );
}
