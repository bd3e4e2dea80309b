import { LOCATION_LEVEL, type TreeNode } from '@rodmenys/contract';
import { Form, TreeSelect } from 'antd';
import { type KeyboardEvent, useMemo } from 'react';
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

/**
 * Space ticks the highlighted node as Enter does while nothing is typed in the search (a space typed
 * after a word stays part of the search: "Architektų g."). The select's own list reacts to Enter only
 * (by the key's keyCode), so Space is passed on to it as an Enter press.
 */
function spaceTicks(event: KeyboardEvent<HTMLElement>) {
  const input = event.target as HTMLInputElement;
  if (event.key !== ' ' || input.value !== '') return;
  event.preventDefault();
  if (input.getAttribute('aria-expanded') !== 'true') return;
  const enter = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true };
  input.dispatchEvent(new window.KeyboardEvent('keydown', enter));
  input.dispatchEvent(new window.KeyboardEvent('keyup', enter));
}

/**
 * The location tree down to buildings as a checkable select. On Statements (a filter) a ticked area
 * stands for all its buildings. With `exact` (what a key may read) the value is exactly the nodes
 * ticked: ticking a street's only building stores that building, never its street, so a building
 * added to the street later is not covered (docs/integration.md).
 */
export function BuildingPicker({
  nodes,
  loading,
  value,
  onChange,
  id = 'statements-buildings',
  label,
  placeholder,
  exact = false,
}: {
  nodes: readonly TreeNode[];
  loading: boolean;
  value: number[];
  onChange: (ids: number[]) => void;
  /** Another screen's own id, label and empty text (default: the statements page's). */
  id?: string;
  label?: string;
  placeholder?: string;
  /** Store exactly the ticked nodes (no parent standing in for its children, no child implied by its parent). */
  exact?: boolean;
}) {
  const { t } = useTranslation();
  const tree = useMemo(() => buildingTree(nodes), [nodes]);
  const titles = useMemo(() => {
    const map = new Map<number, string>();
    const walk = (list: Node[]) => {
      for (const n of list) {
        map.set(n.value, n.title);
        if (n.children) walk(n.children);
      }
    };
    walk(tree);
    return map;
  }, [tree]);
  const common = {
    id,
    style: { width: '100%' },
    treeData: tree,
    treeCheckable: true,
    showSearch: true,
    onKeyDown: spaceTicks,
    treeNodeFilterProp: 'title',
    maxTagCount: 'responsive' as const,
    allowClear: true,
    loading,
    placeholder: placeholder ?? t('statements.allBuildings'),
  };
  return (
    <Form.Item label={label ?? t('statements.buildings')} htmlFor={id} style={{ marginBottom: 0 }}>
      {exact ? (
        <TreeSelect<{ value: number; label?: string }[]>
          {...common}
          treeCheckStrictly
          value={value.map((v) => ({ value: v, label: titles.get(v) ?? String(v) }))}
          onChange={(next) => onChange((next ?? []).map((n) => n.value))}
        />
      ) : (
        <TreeSelect<number[]>
          {...common}
          value={value}
          onChange={(next) => onChange(next ?? [])}
          showCheckedStrategy={TreeSelect.SHOW_PARENT}
        />
      )}
    </Form.Item>
  );
}
