/**
 * Names of API keys and people by id, so the trail can say who acted in words: from the key list
 * for viewers the API lets list keys, and from `GET /v1/audit/principals` (the names the trail
 * itself states) for auditors and tenant admins. A key the viewer cannot name shows its id.
 */
import { useMemo } from 'react';
import { useAuditPrincipalsQuery, useKeysQuery } from '../../api/queries';
import { canOpen } from '../../auth/access';
import { usePrincipal } from '../../auth/AuthContext';

/** The name of a key id, or undefined when it is not known to this viewer. */
export type KeyNames = (id: string | null | undefined) => string | undefined;

export function useKeyNames(): KeyNames {
  const me = usePrincipal();
  const keys = useKeysQuery(canOpen(me, 'keys'));
  const trail = useAuditPrincipalsQuery(canOpen(me, 'audit'));
  return useMemo(() => {
    const names = new Map((trail.data ?? []).map((p) => [p.id, p.name]));
    for (const k of keys.data ?? []) names.set(k.id, k.name);
    return (id) => (id ? names.get(id) : undefined);
  }, [keys.data, trail.data]);
}
