/**
 * The signed-in principal and the API client of its session. A person signed in through the
 * company's IdP has a session cookie (httpOnly: this code never sees it) and a CSRF token from
 * `GET /v1/me`, asked once on page load. Sign-in with a key checks it with `GET /v1/me` before keeping it; a 401 on any later request (key revoked) ends the session. The
 * query cache is cleared whenever the principal changes, so no screen ever shows what another
 * key was allowed to read.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { getMe } from '../api/admin';
import { ApiClientContext } from '../api/ApiClientContext';
import { ApiError, createApiClient } from '../api/client';
import type { Principal } from '../api/types';
import { useI18n } from '../i18n';
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

/** A signed-in key (or a person's cookie session: key null, CSRF token set) and who it is. */
interface Session {
  readonly key: string | null;
  readonly csrfToken: string | null;
  readonly principal: Principal;
}

const AuthContext = createContext<Auth | null>(null);
const ignore401 = () => {};

export function AuthProvider({ children }: { children: ReactNode }) {
  const { language } = useI18n();
  const cache = useQueryClient();
  const [session, setSession] = useState<Session | null>(null);
  /** The key kept from an earlier page load, until `GET /v1/me` has said who it is. */
  const [storedKey, setStoredKey] = useState(readSessionKey);
  const [signOutReason, setSignOutReason] = useState<SignOutReason>(null);
  /** On page load without a stored key: is there a person's cookie session? */
  const [probingCookie, setProbingCookie] = useState(() => readSessionKey() === null);

  const endSession = useCallback(
    (reason: SignOutReason) => {
      clearSessionKey();
      cache.clear();
      setSession(null);
      setSignOutReason(reason);
    },
    [cache],
  );

  /** Asks who a key is, with that key (a 401 here is an answer, not the end of a session). */
  const whoIs = useCallback(
    (key: string | null, signal?: AbortSignal) =>
      getMe(createApiClient({ key, language, onUnauthenticated: ignore401 }), signal),
    [language],
  );

  useEffect(() => {
    if (!storedKey) return;
    const ctrl = new AbortController();
    whoIs(storedKey, ctrl.signal)
      .then((me) => {
        if (!mayUseConsole(me.role)) return endSession(null);
        cache.clear();
        setSession({ key: storedKey, csrfToken: null, principal: me });
      })
      .catch((err: unknown) => {
        if ((err as Error).name === 'AbortError') return;
        endSession(err instanceof ApiError && err.status === 401 ? 'expired' : null);
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setStoredKey(null);
      });
    return () => ctrl.abort();
  }, [storedKey, whoIs, endSession, cache]);

  useEffect(() => {
    if (!probingCookie) return;
    const ctrl = new AbortController();
    whoIs(null, ctrl.signal)
      .then((me) => {
        if (me.principalType !== 'user' || !mayUseConsole(me.role)) return;
        setSession({ key: null, csrfToken: me.csrfToken ?? null, principal: me });
      })
      .catch(() => undefined) // no session: the sign-in page
      .finally(() => {
        if (!ctrl.signal.aborted) setProbingCookie(false);
      });
    return () => ctrl.abort();
  }, [probingCookie, whoIs]);

  const signIn = useCallback(
    async (key: string) => {
      const me = await whoIs(key);
      if (!mayUseConsole(me.role)) throw new AgentKeyError();
      writeSessionKey(key);
      cache.clear();
      setSignOutReason(null);
      setSession({ key, csrfToken: null, principal: me });
      return me;
    },
    [whoIs, cache],
  );

  const sessionKey = session?.key ?? null;
  const csrfToken = session?.csrfToken ?? null;
  const api = useMemo(
    () =>
      createApiClient({
        key: sessionKey,
        csrfToken,
        language,
        onUnauthenticated: () => endSession('expired'),
      }),
    [sessionKey, csrfToken, language, endSession],
  );

  /** A person's session ends on the server too (the cookie is httpOnly); a key is just forgotten. */
  const signOut = useCallback(() => {
    if (csrfToken) void api.request('POST', '/v1/auth/logout').catch(() => undefined);
    endSession(null);
  }, [api, csrfToken, endSession]);

  const principal = session?.principal ?? null;
  const restoring = storedKey !== null || probingCookie;
  const value = useMemo<Auth>(
    () => ({ principal, restoring, signOutReason, signIn, signOut }),
    [principal, restoring, signOutReason, signIn, signOut],
  );
  return (
    <AuthContext.Provider value={value}>
      <ApiClientContext.Provider value={api}>{children}</ApiClientContext.Provider>
    </AuthContext.Provider>
  );
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
