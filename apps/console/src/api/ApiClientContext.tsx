/**
 * The client of the signed-in session, handed down by context: AuthProvider builds it from the
 * session's key and the chosen language, so a component calls the gateway with exactly the
 * credentials it was rendered with and nothing is configured during render.
 */
import { createContext, useContext } from 'react';
import type { ApiClient } from './client';

export const ApiClientContext = createContext<ApiClient | null>(null);

export function useApiClient(): ApiClient {
  const api = useContext(ApiClientContext);
  if (!api) throw new Error('useApiClient outside AuthProvider');
  return api;
}
