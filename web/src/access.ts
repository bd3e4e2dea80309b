/** Permission checks of the web client, in one place (the server checks again). */

import type { UserSession } from '@rodmenys/contract';
import { canManageUsers } from '@rodmenys/contract';

export { canManageUsers };

/** Whether the signed-in user sees the Users screen and menu entry (groups 1 and 2). */
export const canSeeUsers = (user: Pick<UserSession, 'GroupId'> | null): boolean =>
  !!user && canManageUsers(user.GroupId);

/** Whether the signed-in user manages master data and reads the audit log (group 1 only). */
export const canManageMasterData = (user: Pick<UserSession, 'GroupId'> | null): boolean => user?.GroupId === 1;

/** Whether the signed-in user manages collectors (keys, unmatched meters): group 1 only, like master data. */
export const canSeeCollectors = canManageMasterData;
