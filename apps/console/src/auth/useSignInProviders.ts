import { useEffect, useState } from 'react';
import type { SignInProviders } from '@toolgate/contract';

/**
 * `GET /v1/auth/providers`, asked once: the IdP the console offers a button for (null while
 * unknown, and when the gateway has none — then only key sign-in is shown).
 */
export function useSignInProviders(): SignInProviders | null {
  const [providers, setProviders] = useState<SignInProviders | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    fetch('/v1/auth/providers', { signal: ctrl.signal })
      .then((res) => (res.ok ? (res.json() as Promise<{ data: SignInProviders }>) : null))
      .then((body) => body && setProviders(body.data))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, []);
  return providers;
}
