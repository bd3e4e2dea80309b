import type { DeviceRow } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { buildLocationTree, selectionOf, spokenTree } from './location-tree';

const row = (DeviceId: number, LocationId: number, ParentLocationId: number, Building: string, Flat: string | null) =>
  ({
    DeviceId,
    LocationId,
    ParentLocationId,
    County: 'Vilniaus apskr.',
    Region: 'Vilniaus m. sav.',
    City: 'Vilnius',
    Street: 'Gedimino pr.',
    Building,
    Flat,
    DeviceCode: `D${DeviceId}`,
  }) as DeviceRow;

const rows = [
  row(1, 101, 10, '12', '1'),
  row(2, 101, 10, '12', '1'),
  row(3, 102, 10, '12', '2'),
  row(4, 10, 5, '12', null), // building heat meter on the building
  row(5, 201, 20, '14', '1'),
];
const labels = { flat: (f: string) => `Flat ${f}`, device: (r: DeviceRow) => r.DeviceCode };

describe('buildLocationTree', () => {
  it('groups devices under building > flat, building meters under the building', () => {
    const tree = buildLocationTree(rows, labels);
    expect(tree.nodes).toEqual([
      {
        value: 'l10',
        title: 'Gedimino pr. 12, Vilnius',
        children: [
          {
            value: 'l101',
            title: 'Flat 1',
            children: [
              { value: 'd1', title: 'D1' },
              { value: 'd2', title: 'D2' },
            ],
          },
          { value: 'l102', title: 'Flat 2', children: [{ value: 'd3', title: 'D3' }] },
          { value: 'd4', title: 'D4' },
        ],
      },
      {
        value: 'l20',
        title: 'Gedimino pr. 14, Vilnius',
        children: [{ value: 'l201', title: 'Flat 1', children: [{ value: 'd5', title: 'D5' }] }],
      },
    ]);
  });

  it('keeps only the chosen object when asked', () => {
    expect(buildLocationTree(rows, labels, 20).nodes.map((n) => n.value)).toEqual(['l20']);
  });
});

describe('buildLocationTree: areas', () => {
  const inCity = (r: DeviceRow, County: string, Region: string, City: string) => ({ ...r, County, Region, City });
  const wider = [
    ...rows,
    inCity(row(6, 301, 30, '1', '1'), 'Vilniaus apskr.', 'Vilniaus r. sav.', 'Nemenčinė'),
    inCity(row(7, 401, 40, '5', '1'), 'Kauno apskr.', 'Kauno m. sav.', 'Kaunas'),
  ];
  const tree = buildLocationTree(wider, labels);
  const titles = (nodes: typeof tree.nodes): unknown[] =>
    nodes.map((n) => (n.value.startsWith('a') ? { [n.title]: titles(n.children ?? []) } : n.value));

  it('puts buildings under county > municipality > city', () => {
    expect(titles(tree.nodes)).toEqual([
      {
        'Vilniaus apskr.': [
          { 'Vilniaus m. sav.': [{ Vilnius: ['l10', 'l20'] }] },
          { 'Vilniaus r. sav.': [{ Nemenčinė: ['l30'] }] },
        ],
      },
      { 'Kauno apskr.': [{ 'Kauno m. sav.': [{ Kaunas: ['l40'] }] }] },
    ]);
  });

  it('a ticked area asks for its buildings and stands for all their devices', () => {
    const county = tree.nodes[0]!.value;
    const s = selectionOf(tree, [county]);
    expect(s.parents).toEqual([10, 20, 30]);
    expect([...s.deviceIds].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('leaves out area levels with one node at the top', () => {
    expect(buildLocationTree(rows, labels).nodes.map((n) => n.value)).toEqual(['l10', 'l20']);
  });
});

describe('selectionOf', () => {
  const tree = buildLocationTree(rows, labels);
  it('a ticked branch sends its location and stands for its subtree', () => {
    const s = selectionOf(tree, ['l10']);
    expect(s.parents).toEqual([10]);
    expect([...s.deviceIds].sort()).toEqual([1, 2, 3, 4]);
  });
  it('a ticked device sends its place and keeps only itself', () => {
    const s = selectionOf(tree, ['d2', 'l201', 'd4']);
    expect(s.parents).toEqual([10, 101, 201]);
    expect([...s.deviceIds].sort()).toEqual([2, 4, 5]);
  });
  it('nothing ticked: nothing selected', () => {
    expect(selectionOf(tree, [])).toEqual({ parents: [], deviceIds: new Set() });
  });
});

describe('spokenTree', () => {
  it('gives every node its path of titles as the value, unique, and maps both ways', () => {
    const nodes = [
      {
        value: 'l57',
        title: 'Gedimino pr. 12, Vilnius',
        children: [
          { value: 'l58', title: 'Butas 1', children: [{ value: 'd1', title: 'W-1' }] },
          { value: 'l59', title: 'Butas 1', children: [] },
        ],
      },
    ];
    const spoken = spokenTree(nodes);
    expect(spoken.nodes[0]!.value).toBe('Gedimino pr. 12, Vilnius');
    expect(spoken.nodes[0]!.children![0]!.children![0]!.value).toBe('Gedimino pr. 12, Vilnius / Butas 1 / W-1');
    expect(spoken.nodes[0]!.children![1]!.value).toBe('Gedimino pr. 12, Vilnius / Butas 1 (2)');
    expect(spoken.toInternal.get('Gedimino pr. 12, Vilnius / Butas 1 (2)')).toBe('l59');
    expect(spoken.toSpoken.get('d1')).toBe('Gedimino pr. 12, Vilnius / Butas 1 / W-1');
    const values = [...spoken.toInternal.keys()];
    expect(values.some((v) => /\b[ld]\d+\b/.test(v))).toBe(false);
    expect(new Set(values).size).toBe(4);
  });
});
