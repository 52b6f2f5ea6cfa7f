/**
 * One page of runs at a time under the filter in the address bar. Paging is by keyset cursor: the
 * cursors of the pages seen so far are kept, so "previous" and "first" go back through them.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useRunsQuery } from '../../api/queries';
import type { RunFilter } from '../../api/types';
import { RUN_PAGE_SIZES, runFilterFromParams, runFilterToParams } from './run-filter';

type Cursors = (string | undefined)[];
const FIRST_PAGE: Cursors = [undefined];

export function useRuns() {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => runFilterFromParams(params), [params]);
  const filterKey = JSON.stringify(filter);
  const [limit, setLimitState] = useState<number>(RUN_PAGE_SIZES[0]);
  /** The cursors belong to the filter they were read under: a new filter starts at page 1. */
  const [paging, setPaging] = useState<{ key: string; cursors: Cursors }>({
    key: filterKey,
    cursors: FIRST_PAGE,
  });
  const cursors = paging.key === filterKey ? paging.cursors : FIRST_PAGE;
  const setCursors = (next: (c: Cursors) => Cursors) =>
    setPaging((p) => ({ key: filterKey, cursors: next(p.key === filterKey ? p.cursors : FIRST_PAGE) }));
  const query = useRunsQuery(filter, { cursor: cursors[cursors.length - 1], limit });
  const nextCursor = query.data?.nextCursor ?? null;
  // A background poll keeps the page usable; only a page change or a search shows the spinner.
  const loading = query.isFetching && (query.isPlaceholderData || query.isLoading);

  return {
    filter,
    items: query.data?.items ?? [],
    loading,
    error: query.error,
    retry: () => void query.refetch(),
    /** Shows the first page under `next`; the same filter again on page 1 asks the API again. */
    search: (next: RunFilter) => {
      const nextParams = runFilterToParams(next);
      const key = JSON.stringify(runFilterFromParams(new URLSearchParams(nextParams)));
      setPaging({ key, cursors: FIRST_PAGE });
      setParams(nextParams);
      if (key === filterKey && cursors.length === 1) void query.refetch();
    },
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

/** The runs page on screen and the ways to move through it. */
export type Runs = ReturnType<typeof useRuns>;
