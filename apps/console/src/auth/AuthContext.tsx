/**
 * The signed-in principal. Sign-in checks a key with `GET /v1/me` before keeping it; a 401 on any
 * later request (key revoked) ends the session.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { getMe } from '../api/admin';
import { ApiError, configureClient } from '../api/client';
import type { Principal } from '../api/types';
import { mayUseConsole } from './access';
import { clearSessionKey, readSessionKey, writeSessionKey } from './session';

/** Why the sign-in page is shown again. */
export type SignOutReason = 'expired' | null;

interface Auth {
  readonly principal: Principal | null;
  /** True while a stored key is being checked on page load. */
  readonly restoring: boolean;
  readonly signOutReason: SignOutReason;
  /** Checks the key and keeps it; throws {@link ApiError} or `AgentKeyError`. */
  readonly signIn: (key: string) => Promise<Principal>;
  readonly signOut: () => void;
}

/** An agent key was offered at sign-in. */
export class AgentKeyError extends Error {
  constructor() {
    super('agent keys cannot sign in');
    this.name = 'AgentKeyError';
  }
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [principal, setPrincipal] = useState<Principal | null>(null);
  const [restoring, setRestoring] = useState(() => readSessionKey() !== null);
  const [signOutReason, setSignOutReason] = useState<SignOutReason>(null);

  const endSession = useCallback((reason: SignOutReason) => {
    clearSessionKey();
    setPrincipal(null);
    setSignOutReason(reason);
  }, []);

  // Set during render so that the first requests of the children already carry the key.
  configureClient({ key: readSessionKey, onUnauthenticated: () => endSession('expired') });

  useEffect(() => {
    const key = readSessionKey();
    if (!key) return;
    const ctrl = new AbortController();
    getMe(key, ctrl.signal)
      .then((me) => (mayUseConsole(me.role) ? setPrincipal(me) : endSession(null)))
      .catch((err: unknown) => {
        if ((err as Error).name === 'AbortError') return;
        endSession(err instanceof ApiError && err.status === 401 ? 'expired' : null);
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setRestoring(false);
      });
    return () => ctrl.abort();
  }, [endSession]);

  const signIn = useCallback(async (key: string) => {
    const me = await getMe(key);
    if (!mayUseConsole(me.role)) throw new AgentKeyError();
    writeSessionKey(key);
    setSignOutReason(null);
    setPrincipal(me);
    return me;
  }, []);

  const value = useMemo<Auth>(
    () => ({ principal, restoring, signOutReason, signIn, signOut: () => endSession(null) }),
    [principal, restoring, signOutReason, signIn, endSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** The signed-in principal (pages render only after sign-in). */
export function usePrincipal(): Principal {
  const { principal } = useAuth();
  if (!principal) throw new Error('usePrincipal before sign-in');
  return principal;
}
