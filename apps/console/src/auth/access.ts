/** What each role may open: the navigation and the route guards read this one table. */
import type { Role } from '../api/types';

export type PageId =
  'overview' | 'tools' | 'bindings' | 'upstreams' | 'approvals' | 'notifications' | 'audit' | 'runs' | 'keys';

/** Pages in menu order, each with the roles the API lets through. */
export const PAGE_ROLES: Readonly<Record<PageId, readonly Role[]>> = {
  overview: ['platform_admin', 'tenant_admin'],
  tools: ['platform_admin', 'tenant_admin'],
  bindings: ['platform_admin', 'tenant_admin'],
  upstreams: ['platform_admin', 'tenant_admin'],
  approvals: ['platform_admin', 'tenant_admin', 'approver'],
  notifications: ['platform_admin', 'tenant_admin'],
  audit: ['platform_admin', 'auditor', 'tenant_admin'],
  runs: ['platform_admin', 'tenant_admin', 'auditor'],
  keys: ['platform_admin', 'tenant_admin'],
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

export function canOpen(role: Role, page: PageId): boolean {
  return PAGE_ROLES[page].includes(role);
}

/** The pages of a role, in menu order. */
export function pagesOf(role: Role): PageId[] {
  return PAGE_ORDER.filter((p) => canOpen(role, p));
}

/** Agent keys call the agents endpoints; they have no page in the console. */
export function mayUseConsole(role: Role): boolean {
  return role !== 'agent';
}
