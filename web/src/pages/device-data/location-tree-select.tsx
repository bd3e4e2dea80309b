import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllowClear } from '../../components/use-clear';
import { spokenTree, type TreeNode } from './location-tree';

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
  // The select works on spoken values (titles), this component's callers on internal ones.
  const spoken = useMemo(() => spokenTree(nodes), [nodes]);
  const allowClear = useAllowClear();
  return (
    <TreeSelect<string[]>
      aria-label={t('deviceData.tree.label')}
      style={{ width: '100%' }}
      treeData={spoken.nodes}
      value={value.map((v) => spoken.toSpoken.get(v) ?? v)}
      onChange={(next) => onChange((next ?? []).map((v) => spoken.toInternal.get(v) ?? v))}
      treeCheckable
      showCheckedStrategy={TreeSelect.SHOW_PARENT}
      showSearch
      treeNodeFilterProp="title"
      virtual
      listHeight={360}
      maxTagCount="responsive"
      allowClear={allowClear}
      loading={loading}
      placeholder={t('deviceData.tree.placeholder')}
      notFoundContent={t('deviceData.tree.empty')}
    />
  );
}
