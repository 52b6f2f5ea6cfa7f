import { lookup } from 'node:dns/promises';
import {
  inRange,
  isOwnAddress,
  nonPublicRange,
  parseRange,
  reachedAddress,
  type IpAddress,
} from './address-ranges.js';
import { deniedError, EgressError } from './egress-error.js';
import type { EgressOptions, HostResolver, ResolvedAddress } from './egress.options.js';

/** The system's resolver: every address of a name, /etc/hosts included (`localhost` needs no DNS). */
export const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** What the policy says of one address: allowed, or refused with why (for logs, never answers). */
export type EgressDecision = { readonly allowed: true } | { readonly allowed: false; readonly why: string };

/** A URL's host as compared: lower case, without IPv6 brackets or a trailing dot. */
export function normalizeHost(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.$/, '');
}

/**
 * The platform's egress policy (ADR 026): which addresses a request whose URL a tenant chose may
 * reach. Public unicast addresses are allowed; every other range is refused unless the platform
 * allows the host by name (`allowHosts`) or the address by range (`allowCidrs`); the gateway's
 * own listening ports on its own addresses are refused whatever is allowed.
 * @example
 * const policy = new EgressPolicy({ allowHosts: ['crm.corp.example'], allowCidrs: ['10.20.0.0/16'] });
 * const { address } = await policy.pin('crm.corp.example', 443); // connect to exactly this address
 */
export class EgressPolicy {
  private readonly hosts = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ranges: [IpAddress, number][];
  private readonly resolve: HostResolver;

  /**
   * @param ownPorts the ports this gateway listens on, read at each decision (known only once it listens)
   * @throws TypeError for an allowCidrs entry that is not a range or an address
   */
  constructor(
    options: Pick<EgressOptions, 'allowHosts' | 'allowCidrs' | 'resolveHost'>,
    private readonly ownPorts: () => Iterable<number> = () => [],
  ) {
    for (const host of options.allowHosts) {
      const name = normalizeHost(host);
      if (name.startsWith('*.')) this.suffixes.push(name.slice(1));
      else this.hosts.add(name);
    }
    this.ranges = options.allowCidrs.map(parseRange);
    this.resolve = options.resolveHost ?? systemResolver;
  }

  /** Whether the platform allows `hostname` by name, whatever it resolves to. */
  allowsHost(hostname: string): boolean {
    const name = normalizeHost(hostname);
    return this.hosts.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix));
  }

  /** Whether a request for `hostname` may connect to `address` on `port`. */
  decide(hostname: string, address: string, port: number): EgressDecision {
    const reached = reachedAddress(address);
    if (!reached) return { allowed: false, why: `${address} is not an IP address` };
    // The port first: reading the interfaces' addresses is a system call.
    if ([...this.ownPorts()].includes(port) && isOwnAddress(reached))
      return { allowed: false, why: `${reached.toString()}:${port} is this gateway` };
    if (this.allowsHost(hostname) || this.ranges.some((range) => inRange(reached, range)))
      return { allowed: true };
    const range = nonPublicRange(reached);
    return range === null ? { allowed: true } : { allowed: false, why: `${reached.toString()} is ${range}` };
  }

  /**
   * Resolves `hostname` (an IP literal stands for itself), checks EVERY address it has, and answers
   * the one to connect to. Connecting to exactly this address is what closes DNS rebinding: the
   * name is not looked up a second time between the check and the connection.
   * @throws EgressError `egress_denied` when any address is refused, `unresolvable` when there is none
   */
  async pin(hostname: string, port: number): Promise<ResolvedAddress> {
    const host = normalizeHost(hostname);
    const literal = reachedAddress(host);
    let addresses: readonly ResolvedAddress[];
    if (literal) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
    else {
      try {
        addresses = await this.resolve(host);
      } catch {
        addresses = [];
      }
    }
    if (!addresses.length)
      throw new EgressError('unresolvable', `the host ${host} cannot be resolved`, `${host} has no address`);
    for (const { address } of addresses) {
      const decision = this.decide(host, address, port);
      if (!decision.allowed) throw deniedError(`${host}:${port}: ${decision.why}`);
    }
    return addresses[0]!;
  }

  /**
   * Checks a URL before anything is sent (a registration's URLs): its scheme, then `pin`.
   * @throws EgressError
   */
  async check(url: string | URL): Promise<void> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new EgressError('scheme', `only http and https URLs are allowed, not ${parsed.protocol}`);
    await this.pin(parsed.hostname, Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80));
  }
}
