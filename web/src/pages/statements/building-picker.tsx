import { LOCATION_LEVEL, type TreeNode } from '@rodmenys/contract';
import { Form, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

interface Node {
  value: number;
  title: string;
  children?: Node[];
}

/**
 * The location tree as picker nodes: a building titled by its street and number ("Architektų g.
 * 3", searchable so), and a chain of single children (Lietuva › … › the street of one's only
 * building) skipped, so that a ticked node is shown by what it is.
 */
export function buildingTree(nodes: readonly TreeNode[]): Node[] {
  const byParent = new Map<number | null, TreeNode[]>();
  for (const n of nodes) byParent.set(n.ParentId, [...(byParent.get(n.ParentId) ?? []), n]);
  const ids = new Set(nodes.map((n) => n.Id));
  const byId = new Map(nodes.map((n) => [n.Id, n]));
  const titleOf = (n: TreeNode) => {
    const street = n.ParentId === null ? undefined : byId.get(n.ParentId);
    return n.Level === LOCATION_LEVEL.building && street?.Level === LOCATION_LEVEL.street
      ? `${street.Name} ${n.Name}`
      : n.Name;
  };
  const build = (n: TreeNode): Node => {
    const children = (byParent.get(n.Id) ?? []).map(build);
    return { value: n.Id, title: titleOf(n), ...(children.length ? { children } : {}) };
  };
  // Roots: nodes whose parent is not in the tree.
  let roots = nodes.filter((n) => n.ParentId === null || !ids.has(n.ParentId)).map(build);
  while (roots.length === 1 && roots[0]?.children?.length) roots = roots[0].children;
  return roots;
}

/** The buildings of the tree (a manager with one starts with it chosen). */
export const buildingsOf = (nodes: readonly TreeNode[]) => nodes.filter((n) => n.Level === LOCATION_LEVEL.building);

/** The location tree down to buildings as a checkable select: a ticked area stands for all its buildings. */
export function BuildingPicker({
  nodes,
  loading,
  value,
  onChange,
  id = 'statements-buildings',
  label,
  placeholder,
}: {
  nodes: readonly TreeNode[];
  loading: boolean;
  value: number[];
  onChange: (ids: number[]) => void;
  /** Another screen's own id, label and empty text (default: the statements page's). */
  id?: string;
  label?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const tree = useMemo(() => buildingTree(nodes), [nodes]);
  return (
    <Form.Item label={label ?? t('statements.buildings')} htmlFor={id} style={{ marginBottom: 0 }}>
      <TreeSelect<number[]>
        id={id}
        style={{ width: '100%' }}
        treeData={tree}
        value={value}
        onChange={(next) => onChange(next ?? [])}
        treeCheckable
        showCheckedStrategy={TreeSelect.SHOW_PARENT}
        showSearch
        treeNodeFilterProp="title"
        maxTagCount="responsive"
        allowClear
        loading={loading}
        placeholder={placeholder ?? t('statements.allBuildings')}
      />
    </Form.Item>
  );
}
