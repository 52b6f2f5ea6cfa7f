import { Injectable } from '@nestjs/common';
import { Egress, readBoundedBody, MAX_PEER_ANSWER_BYTES } from '@toolgate/egress';
import { createHash } from 'node:crypto';

/** Refresh a token this long before Feishu says it expires. */
const EARLY_MS = 120_000;

/** Which app's token, for whom: a token is only ever handed back to the same key. */
export interface FeishuAppIdentity {
  readonly tenantId: string;
  /** The Feishu open platform's base URL (the channel's `url`). */
  readonly baseUrl: string;
  readonly appId: string;
  readonly appSecret: string;
}

/**
 * Tenant access tokens of Feishu apps (`POST /open-apis/auth/v3/tenant_access_token/internal`
 * with `{app_id, app_secret}` → `{code, tenant_access_token, expire}`), kept in memory until
 * shortly before they expire. Keyed by tenant, base URL, app id and a hash of the App Secret: two
 * tenants naming the same app id (or one tenant's rotated secret) never share a token, so one
 * tenant's cards never go out with another's credential. Never logged. Requested through the
 * egress policy; the answer is read up to MAX_PEER_ANSWER_BYTES.
 */
@Injectable()
export class FeishuAppTokens {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(private readonly egress: Egress) {}

  async token(app: FeishuAppIdentity, timeoutMs: number): Promise<string> {
    const secretHash = createHash('sha256').update(app.appSecret).digest('hex');
    const key = [app.tenantId, app.baseUrl, app.appId, secretHash].join('\u0000');
    const now = Date.now();
    const cached = this.tokens.get(key);
    if (cached && cached.until > now) return cached.token;
    const base = app.baseUrl.endsWith('/') ? app.baseUrl.slice(0, -1) : app.baseUrl;
    const res = await this.egress.fetch(`${base}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ app_id: app.appId, app_secret: app.appSecret }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const read = await readBoundedBody(res, MAX_PEER_ANSWER_BYTES);
    if (!read.ok) throw new Error(`Feishu token answer too large (more than ${MAX_PEER_ANSWER_BYTES} bytes)`);
    const body = parsed(read.bytes.toString('utf8'));
    if (!res.ok || body.code !== 0 || !body.tenant_access_token)
      throw new Error(
        `Feishu token refused: HTTP ${res.status}, code ${String(body.code)} ${String(body.msg ?? '').slice(0, 100)}`,
      );
    const lifetimeMs = Math.max(0, (body.expire ?? 0) * 1000 - EARLY_MS);
    for (const [k, v] of this.tokens) if (v.until <= now) this.tokens.delete(k);
    this.tokens.set(key, { token: body.tenant_access_token, until: now + lifetimeMs });
    return body.tenant_access_token;
  }
}

function parsed(text: string): {
  code?: number;
  msg?: string;
  tenant_access_token?: string;
  expire?: number;
} {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
