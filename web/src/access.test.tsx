import { GROUP, type GroupId } from '@rodmenys/contract';
import { isValidElement, type ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { canOpen, SCREENS, type Screen } from './access';
import { RequireAccess } from './components/shell/require-access';
import { routes } from './routes';

/** Every route of the table with a path, flattened. */
const flatten = (list: readonly RouteObject[]): RouteObject[] =>
  list.flatMap((route) => [route, ...flatten(route.children ?? [])]);
const withPath = flatten(routes).filter((route) => route.path !== undefined);
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

  it('lets each group open its screens only', () => {
    const open = (groupId: GroupId) => SCREENS.filter((screen) => canOpen({ GroupId: groupId }, screen));
    const common = ['/', '/profile', '/deviceData', '/myObjects', '/locationData'];
    expect(open(GROUP.operator)).toEqual([...SCREENS]);
    expect(open(GROUP.admin)).toEqual([...common, '/users', '/anomalies', '/statements', '/integrations']);
    expect(open(GROUP.user)).toEqual([...common, '/anomalies', '/statements']);
    expect(SCREENS.filter((screen) => canOpen(null, screen))).toEqual([]);
  });
});
