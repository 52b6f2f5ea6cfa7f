/**
 * The console's query cache. An admin console shows an error rather than spinning: a failed read
 * is retried once, and only when the gateway itself failed (5xx); 4xx answers are final. Data is
 * cached per endpoint and parameters (see queries.ts) and refetched in the background when a page
 * mounts again; the cache is cleared whenever the signed-in principal changes (AuthContext).
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

const retryOnce5xx = (failures: number, error: unknown) =>
  failures < 1 && error instanceof ApiError && error.status >= 500;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: retryOnce5xx,
        retryDelay: 500,
        // Pages load when they are opened, as before; no surprise reloads when the tab regains focus.
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
