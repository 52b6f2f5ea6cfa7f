/** Typed calls of the agent runs API (CONTRACT.md "Runs"). */
import { withQuery, type ApiClient } from './client';
import type { RunFilter, RunPage, RunView } from './types';

/** One page of runs, newest first; `nextCursor` leads to the next (older) page. */
export const listRuns = (
  api: ApiClient,
  filter: RunFilter,
  page: { cursor?: string; limit: number },
  signal?: AbortSignal,
) => api.request<RunPage>('GET', withQuery('/v1/runs', { ...filter, ...page }), { signal });

export const getRun = (api: ApiClient, runId: string, signal?: AbortSignal) =>
  api.request<RunView>('GET', `/v1/runs/${encodeURIComponent(runId)}`, { signal });

/** Stops a running or parked run; the answer is the run, now `cancelled`. */
export const cancelRun = (api: ApiClient, runId: string) =>
  api.request<RunView>('POST', `/v1/runs/${encodeURIComponent(runId)}/cancel`);
