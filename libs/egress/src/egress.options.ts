/** One address a host name resolves to, as `dns.lookup(host, { all: true })` answers. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to every address it has (the default asks the system, /etc/hosts included). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/**
 * Options of `EgressModule.forRoot` (`egress:` of config/toolgate.yaml): where the gateway may
 * send requests whose URL a tenant chose (ADR 026). Public unicast addresses are always allowed;
 * these open what is refused by default (loopback, private, link-local and other non-public
 * ranges). The gateway's own ports stay refused whatever they say.
 */
export interface EgressOptions {
  /** Host names allowed whatever they resolve to: `crm.corp.example`, or `*.corp.example` for its subdomains. */
  readonly allowHosts: readonly string[];
  /** Address ranges allowed: `10.20.0.0/16`, `fd00:1::/64`, or one address (`10.20.0.5`). */
  readonly allowCidrs: readonly string[];
  /** How host names are resolved; tests map names here (not a setting of the file). */
  readonly resolveHost?: HostResolver;
}

export const EGRESS_OPTIONS = Symbol('EGRESS_OPTIONS');

/** The defaults of the settings file: nothing but public addresses. */
export const DEFAULT_EGRESS_OPTIONS: EgressOptions = { allowHosts: [], allowCidrs: [] };
