import type { TreeNode } from '@rodmenys/contract';
import { Form, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

interface Node {
  value: number;
  title: string;
  children?: Node[];
}

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
  const tree = useMemo(() => {
    const byParent = new Map<number | null, TreeNode[]>();
    for (const n of nodes) byParent.set(n.ParentId, [...(byParent.get(n.ParentId) ?? []), n]);
    const ids = new Set(nodes.map((n) => n.Id));
    const build = (parent: number | null): Node[] =>
      (byParent.get(parent) ?? []).map((n) => {
        const children = build(n.Id);
        return { value: n.Id, title: n.Name, ...(children.length ? { children } : {}) };
      });
    // Roots: nodes whose parent is not in the tree.
    return nodes
      .filter((n) => n.ParentId === null || !ids.has(n.ParentId))
      .flatMap((n) => {
        const children = build(n.Id);
        return [{ value: n.Id, title: n.Name, ...(children.length ? { children } : {}) }];
      });
  }, [nodes]);
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
