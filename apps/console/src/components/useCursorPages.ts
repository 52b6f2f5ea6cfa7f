/**
 * One page of a keyset-paged list at a time, under the filter held in the address bar (so a
 * filtered list can be bookmarked or shared). The cursors of the pages seen so far are kept with
 * the filter they belong to, so "previous" and "first" go back through them and a new filter
 * (search, back button) starts at page 1.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

type Cursors = (string | undefined)[];
const FIRST_PAGE: Cursors = [undefined];

export interface CursorPage<Item> {
  readonly items: Item[];
  readonly nextCursor: string | null;
}

export interface CursorPagesOptions<Filter, Item> {
  readonly fromParams: (params: URLSearchParams) => Filter;
  readonly toParams: (filter: Filter) => Record<string, string>;
  /** The list's query hook: called on every render with the filter and the page on screen. */
  readonly useQuery: (
    filter: Filter,
    page: { cursor: string | undefined; limit: number },
  ) => UseQueryResult<CursorPage<Item>>;
  readonly initialLimit: number;
  /** A list that polls in the background shows the spinner only for a page change or a search. */
  readonly quietPolls?: boolean;
}

export function useCursorPages<Filter, Item>(options: CursorPagesOptions<Filter, Item>) {
  const { fromParams, toParams, useQuery } = options;
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => fromParams(params), [fromParams, params]);
  const filterKey = JSON.stringify(filter);
  const [limit, setLimitState] = useState<number>(options.initialLimit);
  const [paging, setPaging] = useState<{ key: string; cursors: Cursors }>({
    key: filterKey,
    cursors: FIRST_PAGE,
  });
  const cursors = paging.key === filterKey ? paging.cursors : FIRST_PAGE;
  const setCursors = (next: (c: Cursors) => Cursors) =>
    setPaging((p) => ({ key: filterKey, cursors: next(p.key === filterKey ? p.cursors : FIRST_PAGE) }));
  const query = useQuery(filter, { cursor: cursors[cursors.length - 1], limit });
  const nextCursor = query.data?.nextCursor ?? null;
  const loading = options.quietPolls
    ? query.isFetching && (query.isPlaceholderData || query.isLoading)
    : query.isFetching;

  return {
    filter,
    items: query.data?.items ?? [],
    loading,
    error: query.error,
    retry: () => void query.refetch(),
    /** Shows the first page under `next`; the same filter again on page 1 asks the API again. */
    search: (next: Filter) => {
      const nextParams = toParams(next);
      const key = JSON.stringify(fromParams(new URLSearchParams(nextParams)));
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

/** A paged list on screen and the ways to move through it. */
export type CursorPages<Filter, Item> = ReturnType<typeof useCursorPages<Filter, Item>>;
