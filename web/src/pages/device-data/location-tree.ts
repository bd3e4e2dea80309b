import type { DeviceRow } from '@rodmenys/contract';

/** A node of the location tree: an area (county, municipality, city), a building, a flat or a device. */
export interface TreeNode {
  /** `a<n>` for an area, `l<id>` for a building or flat (a location), `d<id>` for a device. */
  value: string;
  title: string;
  children?: TreeNode[];
}

export interface LocationTree {
  nodes: TreeNode[];
  /** Every value's devices (a branch stands for its whole subtree). */
  devicesOf: Map<string, number[]>;
  /** Every device's location (its flat, or its building for a building meter). */
  locationOf: Map<number, number>;
  /** Every area's buildings (location ids): ticking an area asks for them. */
  buildingsOf: Map<string, number[]>;
}

/** What a tick in the tree means for the readings query. */
export interface TreeSelection {
  /** Location ids for `locationParentId`: the ticked branches, and the place of each ticked device. */
  parents: number[];
  /** The devices ticked, directly or through a branch. */
  deviceIds: Set<number>;
}

const buildingTitle = (r: DeviceRow) =>
  [[r.Street, r.Building].filter(Boolean).join(' '), r.City].filter(Boolean).join(', ');

/** The area levels above a building, from the top: county, municipality (Region), city. */
const AREA_LEVELS = ['County', 'Region', 'City'] as const;

/**
 * Builds the county > municipality > city > building > flat > device tree from
 * GetDeviceDataByUserId rows (in address order), so that a whole area can be ticked at once.
 * Area levels with a single node at the top are left out (a manager of one building sees the
 * building first). A building heat meter hangs on its building. `restrictTo` keeps one
 * building (the object chosen on "My objects").
 */
export function buildLocationTree(
  rows: readonly DeviceRow[],
  labels: { flat: (flat: string) => string; device: (row: DeviceRow) => string },
  restrictTo: number | null = null,
): LocationTree {
  let nodes: TreeNode[] = [];
  const byValue = new Map<string, TreeNode>();
  const devicesOf = new Map<string, number[]>();
  const locationOf = new Map<number, number>();
  const buildingsOf = new Map<string, number[]>();
  /** Area values by their address path ("County|Region|City" prefixes). */
  const areaByPath = new Map<string, string>();
  const add = (value: string, deviceId: number) => {
    const list = devicesOf.get(value);
    if (list) list.push(deviceId);
    else devicesOf.set(value, [deviceId]);
  };
  for (const row of rows) {
    const isFlatDevice = row.Flat !== null && row.ParentLocationId !== null;
    const buildingId = isFlatDevice ? row.ParentLocationId! : row.LocationId;
    if (restrictTo !== null && buildingId !== restrictTo) continue;
    const buildingValue = `l${buildingId}`;
    // The areas above the building, created on first sight.
    let siblings = nodes;
    const areas: string[] = [];
    let path = '';
    for (const level of AREA_LEVELS) {
      const name = row[level];
      if (!name) continue;
      path += `|${name}`;
      let areaValue = areaByPath.get(path);
      if (!areaValue) {
        areaValue = `a${areaByPath.size + 1}`;
        areaByPath.set(path, areaValue);
        const area: TreeNode = { value: areaValue, title: name, children: [] };
        byValue.set(areaValue, area);
        siblings.push(area);
      }
      areas.push(areaValue);
      siblings = byValue.get(areaValue)!.children!;
    }
    let building = byValue.get(buildingValue);
    if (!building) {
      building = { value: buildingValue, title: buildingTitle(row), children: [] };
      byValue.set(buildingValue, building);
      siblings.push(building);
      for (const area of areas) {
        const list = buildingsOf.get(area);
        if (list) list.push(buildingId);
        else buildingsOf.set(area, [buildingId]);
      }
    }
    for (const area of areas) add(area, row.DeviceId);
    let parent = building;
    if (isFlatDevice) {
      const flatValue = `l${row.LocationId}`;
      let flat = byValue.get(flatValue);
      if (!flat) {
        flat = { value: flatValue, title: labels.flat(row.Flat!), children: [] };
        byValue.set(flatValue, flat);
        building.children!.push(flat);
      }
      add(flatValue, row.DeviceId);
      parent = flat;
    }
    add(buildingValue, row.DeviceId);
    const deviceValue = `d${row.DeviceId}`;
    parent.children!.push({ value: deviceValue, title: labels.device(row) });
    add(deviceValue, row.DeviceId);
    locationOf.set(row.DeviceId, row.LocationId);
  }
  while (nodes.length === 1 && nodes[0]!.value.startsWith('a')) nodes = nodes[0]!.children!;
  return { nodes, devicesOf, locationOf, buildingsOf };
}

/** The query and the device filter for the ticked values (with SHOW_PARENT a full branch arrives as itself). */
export function selectionOf(tree: LocationTree, values: readonly string[]): TreeSelection {
  const parents = new Set<number>();
  const deviceIds = new Set<number>();
  for (const value of values) {
    const id = Number(value.slice(1));
    if (value.startsWith('l')) parents.add(id);
    else if (value.startsWith('a')) {
      for (const building of tree.buildingsOf.get(value) ?? []) parents.add(building);
    } else {
      const location = tree.locationOf.get(id);
      if (location !== undefined) parents.add(location);
    }
    for (const device of tree.devicesOf.get(value) ?? []) deviceIds.add(device);
  }
  return { parents: [...parents].sort((a, b) => a - b), deviceIds };
}

/** The tree with spoken values: what the tree select announces for a node is its value, not its title. */
export interface SpokenTree {
  nodes: TreeNode[];
  /** Spoken value → internal value (`l57`, `d12`), and back. */
  toInternal: Map<string, string>;
  toSpoken: Map<string, string>;
}

/**
 * Gives every node a value a person can hear: its path of titles ("Street 3, City / Flat 1"),
 * unique in the tree (a repeated path gets " (2)", " (3)"…). The tree select's live region reads
 * a node's value aloud when the arrow keys move to it, so internal keys such as `l57` would be
 * what a screen reader says.
 */
export function spokenTree(nodes: readonly TreeNode[]): SpokenTree {
  const toInternal = new Map<string, string>();
  const toSpoken = new Map<string, string>();
  const walk = (list: readonly TreeNode[], prefix: string): TreeNode[] =>
    list.map((node) => {
      const path = prefix ? `${prefix} / ${node.title}` : node.title;
      let spoken = path;
      for (let n = 2; toInternal.has(spoken); n++) spoken = `${path} (${n})`;
      toInternal.set(spoken, node.value);
      toSpoken.set(node.value, spoken);
      return { ...node, value: spoken, ...(node.children ? { children: walk(node.children, path) } : {}) };
    });
  return { nodes: walk(nodes, ''), toInternal, toSpoken };
}
