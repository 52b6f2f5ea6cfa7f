import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A person the loopback IdP knows. */
export interface IdpPerson {
  readonly sub: string;
  readonly name?: string;
  readonly email?: string;
  readonly groups?: readonly string[];
}

/** A real OpenID provider (oidc-provider, the certified implementation) on loopback. */
export interface LoopbackIdp {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who signs in at the next interaction (the login and consent screens answer by themselves). */
  signInAs(sub: string | null): void;
  addPerson(person: IdpPerson): void;
  close(): Promise<void>;
}

/**
 * Starts oidc-provider on 127.0.0.1 with one confidential client (`redirectUri`), PKCE required,
 * and an interaction endpoint that signs in whoever `signInAs` named and grants the requested
 * scopes, the way a person clicking through the IdP's login and consent pages would.
 */
export async function startLoopbackIdp(
  redirectUri: string,
  people: readonly IdpPerson[],
): Promise<LoopbackIdp> {
  const accounts = new Map(people.map((p) => [p.sub, p]));
  let next: string | null = null;
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'toolgate-console';
  const clientSecret = 'loopback-client-secret-0123456789';

  // Loaded here, not at the top: every spec imports test support, and only the SSO specs need the
  // provider (and its runtime warning on Node 20).
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], profile: ['name', 'groups'], email: ['email'] },
    // Claims in the ID token itself, as Keycloak and Entra put groups there.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['loopback-idp-cookie-key-0123456789'] },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Grant: 600,
      Session: 600,
      AccessToken: 600,
      IdToken: 600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const person = accounts.get(id);
      if (!person) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: person.sub,
          ...(person.name ? { name: person.name } : {}),
          ...(person.email ? { email: person.email } : {}),
          ...(person.groups ? { groups: [...person.groups] } : {}),
        }),
      };
    },
  });
  const callback = provider.callback();

  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (!next || !accounts.has(next)) {
      await provider.interactionFinished(req, res, {
        error: 'access_denied',
        error_description: 'no such person',
      });
      return;
    }
    const grant = new provider.Grant({ accountId: next, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: next }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  handler = (req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/interaction/')) {
      interact(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    void callback(req, res);
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(sub) {
      next = sub;
    },
    addPerson(person) {
      accounts.set(person.sub, person);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A browser for redirect flows: one cookie jar per origin (names only; paths and expiry by
 * Max-Age=0 are all the flows here need), redirects followed by hand so each hop can be checked.
 */
export class RedirectBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  /** The cookies this browser holds for `url`'s origin. */
  cookies(url: string): Map<string, string> {
    const origin = new URL(url).origin;
    let jar = this.jars.get(origin);
    if (!jar) this.jars.set(origin, (jar = new Map()));
    return jar;
  }

  cookieHeader(url: string): string {
    return [...this.cookies(url)].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** One request with this browser's cookies; keeps the cookies the answer sets. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => a.trim().toLowerCase() === 'max-age=0');
      if (expired || value === '') this.cookies(url).delete(name);
      else this.cookies(url).set(name, value);
    }
    return res;
  }

  /**
   * Follows redirects from `url` until one leaves for a URL `stop` accepts (or a non-redirect
   * answer); returns every hop's URL and the last answer.
   */
  async follow(url: string, stop: (next: URL) => boolean = () => false, maxHops = 12) {
    const hops: string[] = [url];
    let current = url;
    for (let i = 0; i < maxHops; i++) {
      const res = await this.request(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { hops, last: res, location: null };
      const next = new URL(location, current);
      hops.push(next.href);
      if (stop(next)) return { hops, last: res, location: next };
      current = next.href;
    }
    throw new Error(`more than ${maxHops} redirects: ${hops.join(' → ')}`);
  }
}
