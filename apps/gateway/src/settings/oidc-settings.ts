import { DEFAULT_OIDC_OPTIONS, type OidcOptions } from '@toolgate/auth';
import type { OidcFile } from './oidc-file.js';
import { SettingsError } from './platform-file.js';

/**
 * `auth.oidc` of the settings file as the auth lib's options: defaults filled in, the client
 * secret read once from the variable the file names (its value never appears in an error).
 */
export function oidcSettings(file: OidcFile | undefined, env: NodeJS.ProcessEnv): OidcOptions | undefined {
  if (!file) return undefined;
  const { clientSecretEnv, ...rest } = file;
  const clientSecret = clientSecretEnv ? env[clientSecretEnv] : undefined;
  if (clientSecretEnv && !clientSecret) {
    throw new SettingsError(
      `auth.oidc.clientSecretEnv names ${clientSecretEnv}, which is not set in the environment`,
    );
  }
  return {
    ...rest,
    displayName: file.displayName ?? DEFAULT_OIDC_OPTIONS.displayName,
    scopes: file.scopes ?? DEFAULT_OIDC_OPTIONS.scopes,
    sessionTtlMs: file.sessionTtlMs ?? DEFAULT_OIDC_OPTIONS.sessionTtlMs,
    maxPendingLogins: file.maxPendingLogins ?? DEFAULT_OIDC_OPTIONS.maxPendingLogins,
    ...(clientSecret ? { clientSecret } : {}),
    allowInsecureIssuer: new URL(file.issuer).protocol === 'http:',
  };
}
