import type { CallPrincipal } from '@toolgate/toolkit';
import type { StoredPrincipal } from '../entities/tool-call.entity.js';

/** The fields of a principal worth keeping with a call (read back, the principal an approved call runs for). */
export function principalOf(p: CallPrincipal | null | undefined): StoredPrincipal {
  if (!p) return { principalType: 'system', principalId: 'system' };
  return {
    principalType: p.principalType,
    principalId: p.principalId,
    role: p.role,
    tenantId: p.tenantId ?? null,
    name: p.name,
  };
}
