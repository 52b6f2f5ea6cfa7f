import type { NotificationSettings, RouteSettings } from '../config/notification-settings.schema.js';

/** What routing looks at: never the input. */
export interface RoutedApproval {
  readonly riskLevel: string;
  readonly tool: string;
  readonly dataDomains: readonly string[];
  readonly expiresAt: Date;
}

/** A message to plan: its kind, what makes it unique, and where it goes. */
export interface Occasion {
  readonly kind: 'request' | 'reminder' | 'escalation';
  readonly occasion: string;
  readonly channels: readonly string[];
}

function matches(route: RouteSettings, a: RoutedApproval): boolean {
  if (route.risk && !route.risk.includes(a.riskLevel as 'L0')) return false;
  if (route.tools && !route.tools.includes(a.tool)) return false;
  if (route.dataDomains && !route.dataDomains.some((d) => a.dataDomains.includes(d))) return false;
  return true;
}

/** The channels every matching route names, each once, in the order the routes name them. */
export function routedChannels(s: NotificationSettings, a: RoutedApproval): string[] {
  return [...new Set(s.routes.filter((r) => matches(r, a)).flatMap((r) => r.channels))];
}

/**
 * The messages a pending approval should have by `now`: the request at once, each reminder
 * once its time before expiry has come, the escalation likewise. Nothing after expiry.
 */
export function occasionsAt(s: NotificationSettings, a: RoutedApproval, now: Date): Occasion[] {
  const left = a.expiresAt.getTime() - now.getTime();
  if (left <= 0) return [];
  const channels = routedChannels(s, a);
  const out: Occasion[] = channels.length ? [{ kind: 'request', occasion: 'request', channels }] : [];
  for (const ms of s.reminders?.beforeExpiryMs ?? []) {
    if (channels.length && left <= ms) out.push({ kind: 'reminder', occasion: `reminder:${ms}`, channels });
  }
  if (s.escalation && left <= s.escalation.beforeExpiryMs)
    out.push({ kind: 'escalation', occasion: 'escalation', channels: [s.escalation.channel] });
  return out;
}
