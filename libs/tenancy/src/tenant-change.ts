import { canonicalJson, type ConnectorRegistry } from '@toolgate/toolkit';
import { PLACEHOLDER, placeholdersIn } from './config/variables.js';
import { CONNECTOR_REGION_KEY } from './tenant-connectors.js';

/** The parts of a tenant an import may change (bindings are versioned and audited on their own). */
export interface TenantFields {
  readonly name: string;
  readonly locale: string | null;
  readonly connectors: Record<string, Record<string, unknown>>;
  readonly settings: Record<string, unknown>;
}

/** One changed value, as the audit trail records it. */
export interface FieldChange {
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

/** What the audit trail shows instead of a secret written into a file in clear. */
const SECRET_SHOWN = '[REDACTED]';

/** Field names that point a connector somewhere, for connectors that do not declare their own. */
const ENDPOINT_NAME = /url|uri|host|endpoint/i;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The tenant file's `compliance:` section, as the settings store it (ADR 048). */
const isCompliancePath = (path: string) =>
  path === 'settings.compliance' || path.startsWith('settings.compliance.');

/** A compliance value that turns a part on (`true`, `profile: dengbao3`), or a section holding one. */
const turnsSomethingOn = (v: unknown): boolean =>
  v === true || v === 'dengbao3' || (isPlainObject(v) && Object.values(v).some(turnsSomethingOn));

/** Every leaf that differs between two JSON values, by dotted path. */
function diffLeaves(before: unknown, after: unknown, path: string, out: FieldChange[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const k of keys) diffLeaves(before[k], after[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  out.push({
    path,
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
  });
}

/**
 * Reads a tenant change the way the trust boundary needs it: every changed value (secrets shown
 * only as their placeholders, a literal secret as `[REDACTED]`), and which changes only a platform
 * admin may make — where a connector points, which secret it sends, which variables it reads.
 */
export class TenantChange {
  readonly changes: FieldChange[] = [];

  constructor(
    private readonly before: TenantFields,
    private readonly after: TenantFields,
    private readonly connectors: ConnectorRegistry,
  ) {
    diffLeaves(before, after, '', this.changes);
  }

  get empty(): boolean {
    return this.changes.length === 0;
  }

  /** The changes as the audit event stores them. */
  forAudit(): FieldChange[] {
    return this.changes.map((c) =>
      this.isSecret(c.path)
        ? {
            path: c.path,
            ...('before' in c ? { before: shownSecret(c.before) } : {}),
            ...('after' in c ? { after: shownSecret(c.after) } : {}),
          }
        : c,
    );
  }

  /** The changes a tenant admin may not make, each with the reason; empty when all are allowed. */
  platformOnly(): { path: string; reason: string }[] {
    const refused: { path: string; reason: string }[] = [];
    for (const c of this.changes) {
      const [section, connector, field] = c.path.split('.');
      if (isCompliancePath(c.path) && turnsSomethingOn(c.before) && !this.keepsWholeProfile(c.path)) {
        // A tenant admin may add parts of the profile to its tenant (ADR 048), not take them away.
        refused.push({
          path: c.path,
          reason: 'removing a part of the compliance profile from a tenant is a platform-admin action',
        });
        continue;
      }
      if (section !== 'connectors') continue;
      if (field === undefined) {
        refused.push({ path: c.path, reason: 'adding or removing a connector is a platform-admin action' });
      } else if (field === CONNECTOR_REGION_KEY) {
        // A tenant admin who could move a connector "home" would switch the cross-border guard off.
        refused.push({
          path: c.path,
          reason: 'where a connector processes data is a platform-admin setting',
        });
      } else if (this.isSecret(c.path)) {
        refused.push({ path: c.path, reason: 'which secret a connector sends is a platform-admin setting' });
      } else if (this.isEndpoint(connector!, field, c)) {
        refused.push({ path: c.path, reason: 'where a connector points is a platform-admin setting' });
      } else if (placeholdersIn([c.before, c.after]).length) {
        refused.push({ path: c.path, reason: 'placeholders reach secrets: a platform-admin setting' });
      }
    }
    return [...refused, ...this.feishuMappings()];
  }

  /** A part given up for the file's own `profile: dengbao3`, which holds every part: no loosening. */
  private keepsWholeProfile(path: string): boolean {
    const after = this.after.settings.compliance;
    return (
      path.startsWith('settings.compliance.') &&
      path !== 'settings.compliance.profile' &&
      isPlainObject(after) &&
      after.profile === 'dengbao3'
    );
  }

  /**
   * Mapping a Feishu user to a person says who decides an approval from a card: an identity claim,
   * like the platform's OIDC claim rules, so only a platform admin may add or change one. Otherwise
   * a tenant admin could map their own Feishu account to another person and meet a two-approver
   * rule alone. Removing a mapping (revoking it) stays the tenant admin's.
   */
  private feishuMappings(): { path: string; reason: string }[] {
    const before = feishuUsersOf(this.before.settings);
    return Object.entries(feishuUsersOf(this.after.settings))
      .filter(([id, user]) => before[id] === undefined || canonicalJson(before[id]) !== canonicalJson(user))
      .map(([id]) => ({
        path: `${FEISHU_USERS_PATH}.${id}`,
        reason:
          'who a Feishu user decides as is a platform-admin setting (a tenant admin may only remove one)',
      }));
  }

  private isSecret(path: string): boolean {
    const [section, connector, field] = path.split('.');
    if (section !== 'connectors' || !field) return false;
    return this.connectors.get(connector!)?.definition.secretFields?.includes(field) ?? false;
  }

  private isEndpoint(connector: string, field: string, change: FieldChange): boolean {
    const declared = this.connectors.get(connector)?.definition.endpointFields;
    if (declared?.includes(field)) return true;
    const urlLike = (v: unknown) => typeof v === 'string' && v.includes('://');
    return ENDPOINT_NAME.test(field) || urlLike(change.before) || urlLike(change.after);
  }
}

const FEISHU_USERS_PATH = 'settings.notifications.feishu.users';

/** The Feishu user mappings of a tenant's settings (`notifications.feishu.users`), by Feishu id. */
function feishuUsersOf(settings: Record<string, unknown>): Record<string, unknown> {
  let node: unknown = settings;
  for (const key of ['notifications', 'feishu', 'users']) node = isPlainObject(node) ? node[key] : undefined;
  return isPlainObject(node) ? node : {};
}

/** A secret field's value as the trail may show it: its placeholders (defaults hidden), never a literal. */
function shownSecret(value: unknown): unknown {
  if (typeof value !== 'string') return value === undefined ? undefined : SECRET_SHOWN;
  if (!placeholdersIn(value).length || value.replace(PLACEHOLDER, '') !== '') return SECRET_SHOWN;
  return value.replace(PLACEHOLDER, (whole, name: string, fallback?: string) =>
    fallback === undefined ? whole : `\${${name}:-${SECRET_SHOWN}}`,
  );
}
