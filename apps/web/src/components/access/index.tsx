/**
 * Access by action name: a button or row action is shown only when the caller may call the
 * action behind it. Read from the action's `access` (public, any signed-in caller, or a list
 * of permission codes) and the session's codes ('admin' holds every code), the same rule the
 * server applies, so nothing is shown that the server would refuse with "no permission".
 * The access comes from the generated `actionTable`, not the catalogue: checking a name must
 * not load every domain's zod schemas into the console.
 *
 *   const { can } = useAccess();
 *   {can('as.m.system.role.insertRole') && <Button …/>}
 *   <Can action="as.m.system.role.deleteRoleById"><Button …/></Can>
 */
import { useCallback, useMemo, type ReactNode } from 'react';
import { actionTable, type ActionName } from '@xinli/contract';
import { usePermission, useSession } from '../../auth';

/** Whether a caller holding `roles` may call the action. */
export function canCall(name: ActionName, roles: readonly string[]): boolean {
  const access = actionTable[name]?.access;
  if (!access) return false;
  if (access === 'public' || access === 'signedIn') return true;
  if (access === 'respondent') return false;
  return roles.includes('admin') || access.codes.some((c) => roles.includes(c));
}

export function useAccess() {
  const { roles } = usePermission();
  const can = useCallback((name: ActionName) => canCall(name, roles), [roles]);
  return useMemo(() => ({ can }), [can]);
}

/** Renders its children only when the caller may call the action. */
export function Can({ action, children }: { action: ActionName; children: ReactNode }) {
  const { can } = useAccess();
  return can(action) ? <>{children}</> : null;
}

/** SPEC §2 login-as marker of an education bureau (lands on statistics). */
export const REGION_AUTHORITY_MARKER = 'JYJ';

/**
 * Whether the caller is an education bureau: it oversees its district's schools by their totals
 * (the server's statistics scope), and never sees a pupil, so its pages show totals instead of lists.
 */
export function useRegionAuthority(): boolean {
  const { session } = useSession();
  return session?.user.loginasmarker === REGION_AUTHORITY_MARKER;
}
