import { useAuditEventsQuery } from '../../api/queries';
import { useCursorPages } from '../../components/useCursorPages';
import { filterFromParams, filterToParams } from './audit-events';

/** One page of the trail at a time under the filter in the address bar. */
export const useAuditEvents = () =>
  useCursorPages({
    fromParams: filterFromParams,
    toParams: filterToParams,
    useQuery: useAuditEventsQuery,
    initialLimit: 50,
  });

/** The trail's page on screen and the ways to move through it. */
export type AuditEvents = ReturnType<typeof useAuditEvents>;
