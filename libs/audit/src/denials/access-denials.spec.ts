import { describe, expect, it } from 'vitest';
import type { AdminEvent, AuditTrail } from '../audit-trail.js';
import { AccessDenials, DENIAL_WINDOW_MS, DENIALS_PER_KEY_PER_WINDOW } from './access-denials.js';

describe('AccessDenials', () => {
  const recorded: AdminEvent[] = [];
  const trail = {
    recordEventually: (events: AdminEvent[]) => recorded.push(...events),
  } as unknown as AuditTrail;
  const denial = (id: string) => ({
    tenantId: 'acme',
    actor: { type: 'api_key' as const, id },
    code: 'FORBIDDEN',
    status: 403,
    route: 'GET /v1/admin/keys',
    path: '/v1/admin/keys',
  });

  it('records a key’s refusals one by one up to the window’s limit, then says how many it left out', () => {
    const denials = new AccessDenials(trail);
    const t0 = 1_000_000;
    for (let i = 0; i < DENIALS_PER_KEY_PER_WINDOW + 5; i++) denials.record(denial('k1'), t0 + i);
    expect(recorded).toHaveLength(DENIALS_PER_KEY_PER_WINDOW);
    expect(recorded[0]).toMatchObject({
      event: 'access_denied',
      tenantId: 'acme',
      status: 'error',
      code: 'FORBIDDEN',
      details: { status: 403, route: 'GET /v1/admin/keys' },
    });
    // Another key is not held back by the first.
    expect(denials.record(denial('k2'), t0 + 10)).toBe(true);
    recorded.length = 0;
    denials.record(denial('k1'), t0 + DENIAL_WINDOW_MS + 1);
    expect(recorded[0]!.details).toMatchObject({ suppressed: 5 });
  });
});
