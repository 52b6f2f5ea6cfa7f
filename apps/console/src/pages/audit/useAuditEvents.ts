/**
 * One page of the trail at a time under the filter in the address bar. Paging is by keyset cursor:
 * the cursors of the pages seen so far are kept, so "previous" and "first" go back through them.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAuditEventsQuery } from '../../api/queries';
import type { AuditFilter } from '../../api/types';
import { filterFromParams, filterToParams } from './audit-events';

type Cursors = (string | undefined)[];
const FIRST_PAGE: Cursors = [undefined];

export function useAuditEvents() {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => filterFromParams(params), [params]);
  const filterKey = JSON.stringify(filter);
  const [limit, setLimitState] = useState<number>(50);
  /**
   * Cursors of the pages seen so far, the last one the current page's. Kept with the filter they
   * belong to, so a new filter (search, back button) starts at page 1.
   */
  const [paging, setPaging] = useState<{ key: string; cursors: Cursors }>({
    key: filterKey,
    cursors: FIRST_PAGE,
  });
  const cursors = paging.key === filterKey ? paging.cursors : FIRST_PAGE;
  const setCursors = (next: (c: Cursors) => Cursors) =>
    setPaging((p) => ({ key: filterKey, cursors: next(p.key === filterKey ? p.cursors : FIRST_PAGE) }));
  const query = useAuditEventsQuery(filter, { cursor: cursors[cursors.length - 1], limit });
  const nextCursor = query.data?.nextCursor ?? null;
  const loading = query.isFetching;

  /** Shows the first page under `next`; the same filter again on page 1 asks the API again. */
  const search = (next: AuditFilter) => {
    const nextParams = filterToParams(next);
    const key = JSON.stringify(filterFromParams(new URLSearchParams(nextParams)));
    setPaging({ key, cursors: FIRST_PAGE });
    setParams(nextParams);
    if (key === filterKey && cursors.length === 1) void query.refetch();
  };

  return {
    filter,
    items: query.data?.items ?? [],
    loading,
    error: query.error,
    retry: () => void query.refetch(),
    search,
    /** 1-based number of the page on screen. */
    pageNumber: cursors.length,
    limit,
    setLimit: (size: number) => {
      setLimitState(size);
      setCursors(() => FIRST_PAGE);
    },
    canGoBack: cursors.length > 1 && !loading,
    canGoForward: nextCursor !== null && !loading,
    first: () => setCursors(() => FIRST_PAGE),
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: () => nextCursor && setCursors((c) => [...c, nextCursor]),
  };
}

/** The trail's page on screen and the ways to move through it. */
export type AuditEvents = ReturnType<typeof useAuditEvents>;
