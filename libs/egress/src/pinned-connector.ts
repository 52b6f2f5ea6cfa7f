import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { EgressPolicy, normalizeHost } from './egress-policy.js';

/**
 * An undici connector that connects only where the policy allows, to the very address it checked:
 * it resolves the host itself (`EgressPolicy.pin`), then hands the base connector that address, so
 * nothing is looked up again between the check and the connection (no DNS-rebinding window). TLS
 * still verifies the certificate against the host name (`servername`). Every connection of the
 * dispatcher goes through here, redirects included, should a caller ever follow one.
 */
export function pinnedConnector(
  policy: EgressPolicy,
  base: buildConnector.connector = buildConnector({}),
): buildConnector.connector {
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const host = normalizeHost(options.hostname);
    policy.pin(host, port).then(
      ({ address }) =>
        base(
          {
            ...options,
            hostname: address,
            // SNI and the certificate check name the host, never the address it was pinned to.
            servername: options.servername || (isIP(host) ? undefined : host),
          },
          callback,
        ),
      (err: Error) => callback(err, null),
    );
  };
}
