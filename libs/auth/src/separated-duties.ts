import { Inject, Injectable } from '@nestjs/common';
import { isSeparatedRole, mayUse, type AdminPower, type SeparatedRole } from '@toolgate/contract';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options.js';
import type { Principal } from './principal.js';
import type { Role } from './roles.js';

/** A refusal that names the administrator the act belongs to (DUTIES_SEPARATED, 403). */
export function dutiesSeparated(act: string, roles: readonly Role[], heldRole: Role): ToolgateError {
  return new ToolgateError(ErrorCode.DUTIES_SEPARATED, {
    params: { act, role: roles.join(' / '), heldRole },
    details: { act, requiredRole: roles.length === 1 ? roles[0] : roles, heldRole },
  });
}

/** A refusal of a second separated role for one person (ROLES_CONFLICT, 403). */
export function rolesConflict(person: string, role: Role, heldRole: Role): ToolgateError {
  return new ToolgateError(ErrorCode.ROLES_CONFLICT, {
    params: { person, role, heldRole },
    details: { person, role, heldRole },
  });
}

/**
 * 等保 2.0 三员分立 (8.1.5) as the gateway applies it (ADR 039). The power table is the contract's
 * (`POWER_RULES`); this says whether the profile is on and turns a refusal into its envelope.
 */
@Injectable()
export class SeparatedDuties {
  /** True under the `dengbao3` profile. */
  readonly on: boolean;

  constructor(@Inject(AUTH_OPTIONS) options: AuthOptions) {
    this.on = options.separatedDuties === true;
  }

  /**
   * Refuses a principal a power it does not hold: DUTIES_SEPARATED naming the administrator to
   * use when the profile took the power away (platform_admin, a tenantless auditor), FORBIDDEN when
   * the role never had it.
   */
  check(principal: Principal, power: AdminPower): void {
    const verdict = mayUse(power, principal.role, principal.tenantId, this.on);
    if (verdict.ok) return;
    if (verdict.separated) throw dutiesSeparated(power, verdict.separated, principal.role);
    throw new ToolgateError(ErrorCode.FORBIDDEN);
  }

  /** Whether `role` is one of the separated administrators whose holders the profile keeps apart. */
  isSeparated(role: Role): role is SeparatedRole {
    return isSeparatedRole(role);
  }
}
