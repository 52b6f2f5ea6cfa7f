import { isSeparatedRole, type Role, type SeparatedRole } from './vocabulary.js';

/**
 * What an administrator may do, one word per kind of admin route (ADR 039). Every admin route
 * names its power (`@AdminPower` in the gateway); who holds a power is this table's answer, so the
 * gateway's guard, the console's navigation and the tests read the same rule.
 */
export const ADMIN_POWERS = [
  // system_admin: configuration, tenants, connectors (in the tenant file), upstreams, notifications.
  'tenants',
  'upstreams',
  'notifications',
  // Reading tenant names and the tool catalog: what the other administrators' pages need to work.
  'tenants.read',
  'tools.read',
  // security_admin: keys, bindings (approval policy is part of them).
  'keys',
  'bindings',
  // audit_admin: reads, verifies and exports the trail and the evidence; changes nothing.
  'trail.read',
  'trail.export',
  'trail.verify',
  'checkpoints',
  // The SIEM sinks carry every tenant's events: platform administrators only (ADR 038).
  'trail.sinks',
  // Aggregate counts of calls, for every administrator's overview.
  'stats',
] as const;
export type AdminPower = (typeof ADMIN_POWERS)[number];

/** Who holds one power. */
export interface PowerRule {
  /** The separated administrators that hold it. */
  readonly separated: readonly SeparatedRole[];
  /** Roles of a tenant that hold it for their own tenant, with or without the profile. */
  readonly tenantRoles: readonly Role[];
  /**
   * With the profile on, platform_admin keeps this power for one purpose only: appointing the
   * separated administrators (their keys), which someone has to do first (ADR 039).
   */
  readonly appointment?: true;
}

const SYSTEM: readonly SeparatedRole[] = ['system_admin'];
const SECURITY: readonly SeparatedRole[] = ['security_admin'];
const AUDIT: readonly SeparatedRole[] = ['audit_admin'];
const ALL: readonly SeparatedRole[] = ['system_admin', 'security_admin', 'audit_admin'];

/** The power table: without the profile platform_admin holds every power as well. */
export const POWER_RULES: Readonly<Record<AdminPower, PowerRule>> = {
  tenants: { separated: SYSTEM, tenantRoles: ['tenant_admin'] },
  upstreams: { separated: SYSTEM, tenantRoles: ['tenant_admin'] },
  notifications: { separated: SYSTEM, tenantRoles: ['tenant_admin'] },
  'tenants.read': { separated: ALL, tenantRoles: ['tenant_admin'] },
  'tools.read': { separated: ['system_admin', 'security_admin'], tenantRoles: ['tenant_admin'] },
  keys: { separated: SECURITY, tenantRoles: ['tenant_admin'], appointment: true },
  bindings: { separated: SECURITY, tenantRoles: ['tenant_admin'] },
  'trail.read': { separated: AUDIT, tenantRoles: ['auditor', 'tenant_admin'] },
  'trail.export': { separated: AUDIT, tenantRoles: ['auditor', 'tenant_admin'] },
  'trail.verify': { separated: AUDIT, tenantRoles: ['auditor', 'tenant_admin'] },
  checkpoints: { separated: AUDIT, tenantRoles: ['auditor'] },
  'trail.sinks': { separated: AUDIT, tenantRoles: [] },
  stats: { separated: ALL, tenantRoles: ['tenant_admin', 'auditor'] },
};

/**
 * Whether a principal may use a power: `ok`, or refused — `separated` names the administrators
 * the act belongs to when the refusal is the profile's (platform_admin, a tenantless auditor,
 * another separated administrator), for an envelope that says whom to ask; absent otherwise.
 * @example mayUse('keys', 'security_admin', null, true) // { ok: true }
 */
export function mayUse(
  power: AdminPower,
  role: Role,
  tenantId: string | null,
  separatedDuties: boolean,
): { readonly ok: true } | { readonly ok: false; readonly separated?: readonly SeparatedRole[] } {
  const rule = POWER_RULES[power];
  if ((rule.separated as readonly Role[]).includes(role)) return { ok: true };
  if (role === 'platform_admin')
    return !separatedDuties || rule.appointment ? { ok: true } : { ok: false, separated: rule.separated };
  // Another administrator's power: under the profile the refusal names whose it is.
  if (isSeparatedRole(role))
    return separatedDuties ? { ok: false, separated: rule.separated } : { ok: false };
  if (!rule.tenantRoles.includes(role)) return { ok: false };
  // A tenantless auditor reads every tenant's trail: with the profile that is the audit_admin's.
  if (tenantId === null && separatedDuties) return { ok: false, separated: rule.separated };
  return { ok: true };
}

/** The powers a principal holds (the console's navigation). */
export function powersOf(role: Role, tenantId: string | null, separatedDuties: boolean): AdminPower[] {
  return ADMIN_POWERS.filter((p) => mayUse(p, role, tenantId, separatedDuties).ok);
}
