import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** An IPv4 or IPv6 address as ipaddr.js parses it. */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** NAT64's well-known prefix (RFC 6052): `64:ff9b::a.b.c.d` reaches the IPv4 address a.b.c.d. */
const NAT64_WELL_KNOWN: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('64:ff9b::'), 96];

/** The IPv4 address carried in the last 32 bits of `v6`. */
function lastIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = v6.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}

/**
 * The IPv4 address an IPv6 form reaches, when it is one: IPv4-mapped (`::ffff:a.b.c.d`),
 * translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and the deprecated IPv4-compatible
 * form (`::a.b.c.d`). Checked as that IPv4 address, so `::ffff:127.0.0.1` is loopback.
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return lastIPv4(v6);
  if (range === 'rfc6052' && v6.match(NAT64_WELL_KNOWN)) return lastIPv4(v6);
  const compatible = v6.parts.slice(0, 6).every((p) => p === 0);
  if (compatible && range !== 'unspecified' && range !== 'loopback') return lastIPv4(v6);
  return undefined;
}

/**
 * The address a connection to `text` really reaches (an IPv6 form of an IPv4 address becomes that
 * address; an IPv6 zone is dropped), or undefined when `text` is not an IP address.
 */
export function reachedAddress(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const withoutZone = bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare;
  if (!ipaddr.IPv4.isValidFourPartDecimal(withoutZone) && !ipaddr.IPv6.isValid(withoutZone)) return undefined;
  const address = ipaddr.parse(withoutZone);
  return address.kind() === 'ipv6' ? (embeddedIPv4(address as ipaddr.IPv6) ?? address) : address;
}

/**
 * The special range `address` is in, or null for a public unicast address. Every range ipaddr.js
 * names is refused: loopback, private (RFC 1918), carrier-grade NAT (100.64/10), link-local
 * (169.254/16 with the cloud metadata service, fe80::/10), unique-local (fc00::/7), unspecified,
 * multicast, broadcast, reserved and documentation ranges, 6to4 and Teredo tunnels, and the rest.
 */
export function nonPublicRange(address: IpAddress): string | null {
  const range: string = address.range();
  return range === 'unicast' ? null : range;
}

/** A range `10.0.0.0/8`, or one address `10.0.0.5`, as ipaddr.js matches it. */
export function parseRange(text: string): [IpAddress, number] {
  if (ipaddr.isValidCIDR(text)) {
    const [address, bits] = ipaddr.parseCIDR(text);
    const reached = reachedAddress(address.toString());
    // `::ffff:10.0.0.0/104` is written for the IPv4 range it maps.
    if (reached && reached.kind() !== address.kind()) return [reached, Math.max(0, bits - 96)];
    return [address, bits];
  }
  const address = reachedAddress(text);
  if (!address) throw new TypeError(`"${text}" is neither an address nor a CIDR range`);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** Whether `address` is in `range` (of the same family). */
export function inRange(address: IpAddress, range: [IpAddress, number]): boolean {
  return address.kind() === range[0].kind() && address.match(range);
}

/**
 * Whether `address` is this host's: loopback, unspecified (which connects to this host), or one
 * of its interfaces' addresses.
 */
export function isOwnAddress(address: IpAddress): boolean {
  const range = address.range();
  if (range === 'loopback' || range === 'unspecified') return true;
  const text = address.toString();
  for (const list of Object.values(networkInterfaces()))
    for (const iface of list ?? []) {
      const own = reachedAddress(iface.address);
      if (own && own.kind() === address.kind() && own.toString() === text) return true;
    }
  return false;
}
