/** What each principal may open: the navigation and the route guards read this one table. */
import { mayUse, type AdminPower } from '@toolgate/contract/rules';
import type { Principal as PrincipalView, Role } from '../api/types';

export type PageId =
  'overview' | 'tools' | 'bindings' | 'upstreams' | 'approvals' | 'notifications' | 'audit' | 'runs' | 'keys';

/** Who opens the console: its role, tenant, and whether the deployment separates duties (ADR 039). */
export type Viewer = Pick<PrincipalView, 'role' | 'tenantId'> &
  Partial<Pick<PrincipalView, 'separatedDuties'>>;

/**
 * A page the admin power table decides (the contract's `POWER_RULES`, as the gateway's guard
 * applies it), leaving out roles it is not meant for; or a page of a few roles.
 */
type PageRule =
  { readonly power: AdminPower; readonly not?: readonly Role[] } | { readonly roles: readonly Role[] };

/** Pages in menu order: each is shown to whom the API lets through. */
export const PAGE_RULES: Readonly<Record<PageId, PageRule>> = {
  // An auditor may read the stats too, but its console opens on the trail.
  overview: { power: 'stats', not: ['auditor'] },
  tools: { power: 'tools.read' },
  bindings: { power: 'bindings' },
  upstreams: { power: 'upstreams' },
  approvals: { roles: ['platform_admin', 'tenant_admin', 'approver'] },
  notifications: { power: 'notifications' },
  audit: { power: 'trail.read' },
  runs: { roles: ['platform_admin', 'tenant_admin', 'auditor'] },
  keys: { power: 'keys' },
};

/** Runs come after the audit trail, so an auditor's console still opens on the trail. */
export const PAGE_ORDER: readonly PageId[] = [
  'overview',
  'tools',
  'bindings',
  'upstreams',
  'approvals',
  'notifications',
  'audit',
  'runs',
  'keys',
];

/** Who may cancel a run (the API's rule: tenant admins of its tenant, platform admins). */
export const mayCancelRuns = (role: Role): boolean => role === 'platform_admin' || role === 'tenant_admin';

export function canOpen(viewer: Viewer, page: PageId): boolean {
  const rule = PAGE_RULES[page];
  if ('roles' in rule) return rule.roles.includes(viewer.role);
  if (rule.not?.includes(viewer.role)) return false;
  return holds(viewer, rule.power);
}

/** Whether the viewer holds an admin power (a control on a page, e.g. the tenant picker). */
export function holds(viewer: Viewer, power: AdminPower): boolean {
  return mayUse(power, viewer.role, viewer.tenantId, viewer.separatedDuties === true).ok;
}

/** The pages of a principal, in menu order. */
export function pagesOf(viewer: Viewer): PageId[] {
  return PAGE_ORDER.filter((p) => canOpen(viewer, p));
}

/** Agent keys call the agents endpoints; they have no page in the console. */
export function mayUseConsole(role: Role): boolean {
  return role !== 'agent';
}
