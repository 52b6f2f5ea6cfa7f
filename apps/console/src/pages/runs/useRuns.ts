import { useRunsQuery } from '../../api/queries';
import { useCursorPages } from '../../components/useCursorPages';
import { RUN_PAGE_SIZES, runFilterFromParams, runFilterToParams } from './run-filter';

/** One page of runs at a time under the filter in the address bar; the list polls while runs are live. */
export const useRuns = () =>
  useCursorPages({
    fromParams: runFilterFromParams,
    toParams: runFilterToParams,
    useQuery: useRunsQuery,
    initialLimit: RUN_PAGE_SIZES[0],
    quietPolls: true,
  });

/** The runs page on screen and the ways to move through it. */
export type Runs = ReturnType<typeof useRuns>;
