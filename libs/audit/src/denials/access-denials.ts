import { Injectable } from '@nestjs/common';
import type { AuditActor } from '../audit-event.js';
import { AuditTrail } from '../audit-trail.js';

/** How many refusals of one key are recorded one by one per window; the rest are counted. */
export const DENIALS_PER_KEY_PER_WINDOW = 30;
/** The window of that limit (ms). */
export const DENIAL_WINDOW_MS = 60_000;
/** Keys tracked at once; past it the oldest window is forgotten. */
const MAX_TRACKED_KEYS = 10_000;

/** A request refused for an authenticated key or person, as the gateway saw it. */
export interface AccessDenial {
  /** The key's tenant; null for platform-wide keys (the platform chain). */
  readonly tenantId: string | null;
  readonly actor: AuditActor;
  /** The refusal's code: FORBIDDEN, TOOL_NOT_FOUND, NOT_FOUND, RATE_LIMITED, … */
  readonly code: string;
  readonly status: number;
  /** `METHOD /route/:pattern` and the path asked for. */
  readonly route: string;
  readonly path: string;
  /** Why, when the refusal says more than its code (`details.reason`). */
  readonly reason?: string;
  readonly tool?: string | null;
  readonly agentType?: string | null;
  /** The call the refusal ended, when one was opened (a call over its quota). */
  readonly callId?: string | null;
}

interface Window {
  start: number;
  recorded: number;
  suppressed: number;
}

/**
 * Records refused requests as `access_denied` events in the key's tenant trail — beside the
 * request, never before its answer. A key that is refused over and over (a misconfigured agent,
 * a probe) gets DENIALS_PER_KEY_PER_WINDOW events per window; the next recorded one says how many
 * were left out (`details.suppressed`), so the trail stays bounded and still tells the count.
 */
@Injectable()
export class AccessDenials {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly trail: AuditTrail) {}

  record(denial: AccessDenial, now = Date.now()): boolean {
    const w = this.windowOf(`${denial.actor.type}:${denial.actor.id}`, now);
    if (w.recorded >= DENIALS_PER_KEY_PER_WINDOW) {
      w.suppressed++;
      return false;
    }
    w.recorded++;
    const suppressed = w.suppressed;
    w.suppressed = 0;
    this.trail.recordEventually([
      {
        event: 'access_denied',
        tenantId: denial.tenantId,
        actor: denial.actor,
        callId: denial.callId ?? null,
        tool: denial.tool ?? null,
        agentType: denial.agentType ?? null,
        status: 'error',
        code: denial.code,
        details: {
          status: denial.status,
          route: denial.route,
          path: denial.path,
          ...(denial.reason ? { reason: denial.reason } : {}),
          ...(suppressed ? { suppressed } : {}),
        },
      },
    ]);
    return true;
  }

  private windowOf(key: string, now: number): Window {
    let w = this.windows.get(key);
    if (w && now - w.start < DENIAL_WINDOW_MS) return w;
    const suppressed = w?.suppressed ?? 0;
    this.windows.delete(key);
    if (this.windows.size >= MAX_TRACKED_KEYS) this.windows.delete(this.windows.keys().next().value!);
    w = { start: now, recorded: 0, suppressed };
    this.windows.set(key, w);
    return w;
  }
}
