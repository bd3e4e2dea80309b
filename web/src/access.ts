/**
 * Who may open which screen, in one table (the server checks every request again). The side
 * menu, the home page's links and the route table all read it: a screen the user may not open
 * is not offered, and its address shows the one "not allowed" page (docs/accessibility.md).
 */

import { canManageUsers, isOperator, type UserSession } from '@rodmenys/contract';

type Viewer = Pick<UserSession, 'GroupId'> | null;

/** The signed-in screens, by their path in the route table. */
export const SCREENS = [
  '/',
  '/profile',
  '/deviceData',
  '/myObjects',
  '/locationData',
  '/users',
  '/masterData',
  '/audit',
  '/collectors',
  '/lorawan',
  '/anomalies',
  '/statements',
  '/integrations',
  '/devices',
] as const;
export type Screen = (typeof SCREENS)[number];

const everyone = () => true;

/** The access table: the groups that may open each screen. */
export const SCREEN_ACCESS: Readonly<Record<Screen, (groupId: number) => boolean>> = {
  '/': everyone,
  '/profile': everyone,
  '/deviceData': everyone,
  '/myObjects': everyone,
  '/locationData': everyone,
  // Groups 1 and 2 manage accounts (an administrator those of his own area).
  '/users': canManageUsers,
  // Master data, its audit log and the collectors are the provider's own work: group 1 only.
  '/masterData': isOperator,
  '/audit': isOperator,
  '/collectors': isOperator,
  // LoRaWAN network servers, like the collectors: group 1 only.
  '/lorawan': isOperator,
  // Everyone sees the anomalies of the buildings they may see (scoped by the server).
  '/anomalies': everyone,
  // Monthly statements of the flats one may see (scoped by the server); publishing is group 1's.
  '/statements': everyone,
  // Integration keys: groups 1 and 2 (group 2 within its scope); receivers and deliveries: group 1.
  '/integrations': canManageUsers,
  // Devices over their lifetime: groups 1 and 2 (group 2 within its scope; the exception notes are group 1's).
  '/devices': canManageUsers,
};

/** Whether the signed-in user may open a screen. */
export const canOpen = (user: Viewer, screen: Screen): boolean => !!user && SCREEN_ACCESS[screen](user.GroupId);
