/** How the console reads the audit filters from the address bar (event types: @toolgate/contract). */
import { RISK_LEVELS, type AuditFilter } from '../../api/types';

/** Page sizes offered: small enough that a page renders at once whatever the trail holds. */
export const PAGE_SIZES = [50, 100, 200] as const;

const FILTER_KEYS = [
  'tenantId',
  'tool',
  'riskLevel',
  'actorId',
  'status',
  'code',
  'event',
  'callId',
  'from',
  'to',
] as const;

/** The filter held in the address bar (so a filtered view can be bookmarked or shared). */
export function filterFromParams(params: URLSearchParams): AuditFilter {
  const f: Record<string, string> = {};
  for (const k of FILTER_KEYS) {
    const v = params.get(k);
    if (v) f[k] = v;
  }
  const filter = f as AuditFilter;
  if (filter.riskLevel && !RISK_LEVELS.includes(filter.riskLevel)) delete filter.riskLevel;
  if (filter.status && filter.status !== 'ok' && filter.status !== 'error') delete filter.status;
  return filter;
}

export function filterToParams(filter: AuditFilter): Record<string, string> {
  // The events view of the audit page (its default view is the calls).
  const out: Record<string, string> = { view: 'events' };
  for (const k of FILTER_KEYS) {
    const v = filter[k];
    if (typeof v === 'string' && v.trim()) out[k] = v.trim();
  }
  return out;
}
