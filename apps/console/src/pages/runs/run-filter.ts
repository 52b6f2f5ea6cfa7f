/** How the console reads the runs filter from the address bar (statuses: @toolgate/contract). */
import { RUN_STATUSES, type RunFilter, type RunStatus } from '../../api/types';

/** Page sizes offered (the API allows up to 200). */
export const RUN_PAGE_SIZES = [20, 50, 100] as const;

const FILTER_KEYS = ['tenantId', 'agentType', 'status', 'sessionId'] as const;

const isRunStatus = (v: string): v is RunStatus => (RUN_STATUSES as readonly string[]).includes(v);

/** The filter held in the address bar (so a filtered list can be bookmarked or shared). */
export function runFilterFromParams(params: URLSearchParams): RunFilter {
  const filter: RunFilter = {};
  for (const k of FILTER_KEYS) {
    const v = params.get(k)?.trim();
    if (!v) continue;
    if (k === 'status') {
      if (isRunStatus(v)) filter.status = v;
    } else filter[k] = v;
  }
  return filter;
}

export function runFilterToParams(filter: RunFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of FILTER_KEYS) {
    const v = filter[k]?.trim();
    if (v) out[k] = v;
  }
  return out;
}
