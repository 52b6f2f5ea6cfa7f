import { isSeparatedRole, type SeparatedRole } from '@toolgate/contract';
import type { Role } from '../roles.js';
import type { ClaimRoleRule } from './oidc.options.js';

/** The role a person gets from its claims; null when no rule matches (no access). */
export interface MappedRole {
  readonly role: Role;
  readonly tenantId: string | null;
}

/** True when `value` is the expected string, or a list holding it. Other shapes never match. */
function claimMatches(value: unknown, expected: string): boolean {
  if (typeof value === 'string') return value === expected;
  return Array.isArray(value) && value.some((v) => v === expected);
}

/**
 * The first rule matching the claims decides; an unmapped person gets null and no session.
 * @example mapClaimsToRole({ groups: ['acme-approvers'] }, [{ claim: 'groups', equals: 'acme-approvers', role: 'approver', tenantId: 'acme' }])
 */
export function mapClaimsToRole(
  claims: Readonly<Record<string, unknown>>,
  rules: readonly ClaimRoleRule[],
): MappedRole | null {
  for (const rule of rules) {
    if (!Object.hasOwn(claims, rule.claim)) continue;
    if (claimMatches(claims[rule.claim], rule.equals))
      return { role: rule.role, tenantId: rule.tenantId ?? null };
  }
  return null;
}

/**
 * Every separated administrator role (system_admin, security_admin, audit_admin) some matching
 * rule gives, not only the first's: under the profile a person two rules make two of them is
 * refused rather than given whichever rule comes first (ADR 039).
 */
export function separatedRolesOf(
  claims: Readonly<Record<string, unknown>>,
  rules: readonly ClaimRoleRule[],
): SeparatedRole[] {
  const roles = new Set<SeparatedRole>();
  for (const rule of rules)
    if (
      isSeparatedRole(rule.role) &&
      Object.hasOwn(claims, rule.claim) &&
      claimMatches(claims[rule.claim], rule.equals)
    )
      roles.add(rule.role);
  return [...roles];
}
