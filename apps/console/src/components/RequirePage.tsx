import type { ReactNode } from 'react';
import { canOpen, type PageId } from '../auth/access';
import { usePrincipal } from '../auth/AuthContext';
import { Forbidden } from './Forbidden';

/** Renders a page only for the roles that may open it; the rest see a 403. */
export function RequirePage({ page, children }: { page: PageId; children: ReactNode }) {
  const me = usePrincipal();
  return canOpen(me, page) ? <>{children}</> : <Forbidden />;
}
