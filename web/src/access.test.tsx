import { GROUP, type GroupId, OCCUPANT_CODE_PATH } from '@rodmenys/contract';
import { isValidElement, type ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { canOpen, SCREENS, type Screen } from './access';
import { RequireAccess } from './components/shell/require-access';
import { RequireOccupant } from './pages/occupant/require-occupant';
import { routes } from './routes';

/** Every route of the table with a path, flattened. */
const flatten = (list: readonly RouteObject[]): RouteObject[] =>
  list.flatMap((route) => [route, ...flatten(route.children ?? [])]);
/** The occupant's pages (docs/occupant-access.md): their own frame, outside the back office's access table. */
const occupantRoot = routes.flatMap((r) => [r, ...(r.children ?? [])]).find((r) => r.path === OCCUPANT_CODE_PATH)!;
const occupantRoutes = flatten([occupantRoot]);
const withPath = flatten(routes).filter((route) => route.path !== undefined && !occupantRoutes.includes(route));
const PUBLIC = ['/login', '/register', '*'];

describe('the access table', () => {
  it('guards every signed-in route of the route table, by its own path', () => {
    const guarded = withPath.filter((route) => !PUBLIC.includes(route.path!));
    expect(guarded.map((route) => route.path).sort()).toEqual([...SCREENS].sort());
    for (const route of guarded) {
      const element = route.element as ReactElement<{ screen: Screen }>;
      expect(isValidElement(element) && element.type === RequireAccess, route.path).toBe(true);
      expect(element.props.screen).toBe(route.path);
    }
  });

  it("keeps the occupant's months behind the occupant's session, and only the code and link pages open", () => {
    const open = (occupantRoot.children ?? []).filter((r) => r.path !== undefined || r.index);
    const guard = (occupantRoot.children ?? []).find(
      (r) => isValidElement(r.element) && r.element.type === RequireOccupant,
    );
    expect(guard?.children?.map((r) => r.path)).toEqual(['months', 'months/:month', 'declare']);
    expect(open.every((r) => !(r.path ?? '').startsWith('months'))).toBe(true);
  });

  it('lets each group open its screens only', () => {
    const open = (groupId: GroupId) => SCREENS.filter((screen) => canOpen({ GroupId: groupId }, screen));
    const common = ['/', '/profile', '/deviceData', '/myObjects', '/locationData'];
    expect(open(GROUP.operator)).toEqual([...SCREENS]);
    expect(open(GROUP.admin)).toEqual([...common, '/users', '/anomalies', '/statements', '/integrations', '/devices']);
    expect(open(GROUP.user)).toEqual([...common, '/anomalies', '/statements']);
    expect(SCREENS.filter((screen) => canOpen(null, screen))).toEqual([]);
  });
});
