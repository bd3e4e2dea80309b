import { LOCATION_LEVEL, type TreeNode } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { buildingTree } from './building-picker';

const node = (Id: number, ParentId: number | null, Level: TreeNode['Level'], Name: string): TreeNode => ({
  Id,
  ParentId,
  Level,
  Name,
  FlatOrder: null,
});
const chain = [
  node(1, null, LOCATION_LEVEL.country, 'Lietuva'),
  node(2, 1, LOCATION_LEVEL.county, 'Vilniaus apskr.'),
  node(3, 2, LOCATION_LEVEL.region, 'Vilniaus m. sav.'),
  node(4, 3, LOCATION_LEVEL.city, 'Vilnius'),
  node(5, 4, LOCATION_LEVEL.street, 'Architektų g.'),
  node(6, 5, LOCATION_LEVEL.building, '3'),
];

describe('buildingTree', () => {
  it("names a building by its street and number, and skips the chain above one's only building", () => {
    expect(buildingTree(chain)).toEqual([{ value: 6, title: 'Architektų g. 3' }]);
  });
  it('keeps the tree from where it branches', () => {
    const tree = buildingTree([
      ...chain,
      node(7, 5, LOCATION_LEVEL.building, '5'),
      node(8, 4, LOCATION_LEVEL.street, 'Gedimino pr.'),
    ]);
    expect(tree).toEqual([
      {
        value: 5,
        title: 'Architektų g.',
        children: [
          { value: 6, title: 'Architektų g. 3' },
          { value: 7, title: 'Architektų g. 5' },
        ],
      },
      { value: 8, title: 'Gedimino pr.' },
    ]);
  });
});
