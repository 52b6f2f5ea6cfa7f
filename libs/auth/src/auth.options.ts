import type { OidcOptions } from './oidc/oidc.options.js';

/** Settings of the auth lib. */
export interface AuthOptions {
  /** If set, a platform-admin key with this secret exists after boot (TOOLGATE_ADMIN_KEY). */
  readonly adminKey?: string;
  /** When no adminKey is set, make a platform-admin key (at the first boot when kept) and print it once. */
  readonly generateAdminKey: boolean;
  /**
   * Where the generated key is kept between boots (mode 0600; `<TOOLGATE_DATA_DIR>/admin-key`).
   * Unset: a new key every boot, replacing the previous boot's.
   */
  readonly adminKeyFile?: string;
  /**
   * How long a verified key is trusted without asking the database again. A key revoked on
   * another gateway stops working after at most this long; on the revoking gateway at once.
   */
  readonly keyCacheTtlMs: number;
  /** Sign-in of people through the company's OpenID provider; absent: keys only. */
  readonly oidc?: OidcOptions;
  /**
   * 等保 三员分立 (the `dengbao3` compliance profile, ADR 039): the system, security and audit
   * administrators hold separate powers, platform_admin none of them, and no person holds two.
   */
  readonly separatedDuties?: boolean;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_AUTH_OPTIONS: Pick<AuthOptions, 'keyCacheTtlMs'> = { keyCacheTtlMs: 2_000 };

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');
