import { Injectable } from '@nestjs/common';

/** Refresh a token this long before Feishu says it expires. */
const EARLY_MS = 120_000;

/**
 * Tenant access tokens of Feishu apps (`POST /open-apis/auth/v3/tenant_access_token/internal`
 * with `{app_id, app_secret}` → `{code, tenant_access_token, expire}`), kept in memory until
 * shortly before they expire. Keyed by base URL and app id; never logged.
 */
@Injectable()
export class FeishuAppTokens {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  async token(baseUrl: string, appId: string, appSecret: string, timeoutMs: number): Promise<string> {
    const key = `${baseUrl}\u0000${appId}`;
    const cached = this.tokens.get(key);
    if (cached && cached.until > Date.now()) return cached.token;
    const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
    const res = await fetch(`${base}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ app_id: appId, app_secret: appSecret }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json().catch(() => ({}))) as {
      code?: number;
      msg?: string;
      tenant_access_token?: string;
      expire?: number;
    };
    if (!res.ok || body.code !== 0 || !body.tenant_access_token)
      throw new Error(
        `Feishu token refused: HTTP ${res.status}, code ${String(body.code)} ${String(body.msg ?? '').slice(0, 100)}`,
      );
    const lifetimeMs = Math.max(0, (body.expire ?? 0) * 1000 - EARLY_MS);
    this.tokens.set(key, { token: body.tenant_access_token, until: Date.now() + lifetimeMs });
    return body.tenant_access_token;
  }
}
