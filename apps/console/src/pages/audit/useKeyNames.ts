/**
 * Names of API keys by id, so the trail can say who acted in words. Only for viewers the API lets
 * list keys (the keys page's roles); everyone else, and a key that is gone, sees the id.
 */
import { useMemo } from 'react';
import { useKeysQuery } from '../../api/queries';
import { canOpen } from '../../auth/access';
import { usePrincipal } from '../../auth/AuthContext';

/** The name of a key id, or undefined when it is not known to this viewer. */
export type KeyNames = (id: string | null | undefined) => string | undefined;

export function useKeyNames(): KeyNames {
  const me = usePrincipal();
  const keys = useKeysQuery(canOpen(me.role, 'keys'));
  return useMemo(() => {
    const names = new Map((keys.data ?? []).map((k) => [k.id, k.name]));
    return (id) => (id ? names.get(id) : undefined);
  }, [keys.data]);
}
