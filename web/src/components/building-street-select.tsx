import { LOCATION_LEVEL, type TreeNode } from '@rodmenys/contract';
import { Skeleton, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocationTree } from '../api/location-data';
import { LoadError } from './load-error';

/**
 * Picks the buildings or streets a machine (a collector, a network server) serves, from the
 * location tree; a building by its street and number ("Architektų g. 3"), as the other pickers
 * name it, other levels by name and level.
 */
export function BuildingStreetSelect({
  value,
  onChange,
  label,
  placeholder,
  id,
}: {
  value?: number[];
  onChange?: (value: number[]) => void;
  /** The picker's spoken name, when no form label names it. */
  label?: string;
  placeholder: string;
  id?: string;
}) {
  const { t } = useTranslation();
  const tree = useLocationTree(LOCATION_LEVEL.building);
  const titleOf = useMemo(() => {
    const byId = new Map((tree.data ?? []).map((n) => [n.Id, n]));
    return (n: TreeNode) => {
      const street = n.ParentId === null ? undefined : byId.get(n.ParentId);
      return n.Level === LOCATION_LEVEL.building && street?.Level === LOCATION_LEVEL.street
        ? `${street.Name} ${n.Name}`
        : `${n.Name} · ${t(`levels.${n.Level}`)}`;
    };
  }, [tree.data, t]);
  const treeData = useMemo(
    () =>
      (tree.data ?? []).map((n) => ({
        id: n.Id,
        pId: n.ParentId ?? 0,
        value: n.Id,
        title: titleOf(n),
        selectable: n.Level === LOCATION_LEVEL.street || n.Level === LOCATION_LEVEL.building,
        checkable: n.Level === LOCATION_LEVEL.street || n.Level === LOCATION_LEVEL.building,
        isLeaf: n.Level >= LOCATION_LEVEL.building,
      })),
    [tree.data, titleOf],
  );
  if (tree.error) return <LoadError error={tree.error} onRetry={() => void tree.refetch()} />;
  if (!tree.data) return <Skeleton active />;
  return (
    <TreeSelect
      id={id}
      aria-label={label}
      style={{ width: '100%' }}
      treeDataSimpleMode
      treeData={treeData}
      value={value}
      onChange={(next: number[]) => onChange?.(next)}
      multiple
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={placeholder}
      listHeight={360}
    />
  );
}
