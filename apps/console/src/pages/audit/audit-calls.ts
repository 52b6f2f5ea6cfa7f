/** How the console reads the calls view's filters from the address bar (`GET /v1/audit/calls`). */
import { CALL_STATUSES } from '@toolgate/contract/rules';
import type { AuditCallFilter } from '../../api/types';

const CALL_FILTER_KEYS = [
  'tenantId',
  'agentType',
  'tool',
  'target',
  'person',
  'state',
  'code',
  'from',
  'to',
] as const;

export function callFilterFromParams(params: URLSearchParams): AuditCallFilter {
  const f: Record<string, string> = {};
  for (const k of CALL_FILTER_KEYS) {
    const v = params.get(k);
    if (v) f[k] = v;
  }
  const filter = f as AuditCallFilter;
  if (filter.state && !CALL_STATUSES.includes(filter.state)) delete filter.state;
  return filter;
}

export function callFilterToParams(filter: AuditCallFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of CALL_FILTER_KEYS) {
    const v = filter[k];
    if (typeof v === 'string' && v.trim()) out[k] = v.trim();
  }
  return out;
}
