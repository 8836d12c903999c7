import ipaddr from 'ipaddr.js';

/** A client network: an address and its prefix length (10.0.0.0/8, 2001:db8::/32). */
export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * A comma-separated list of networks in CIDR notation (a bare address is a network of one), parsed with ipaddr.js
 * (the parser Fastify's trust-proxy already uses): the networks, and the entries that are none.
 */
export function parseNetworks(list: string): { networks: Network[]; bad: string[] } {
  const networks: Network[] = [];
  const bad: string[] = [];
  for (const entry of list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')) {
    try {
      if (entry.includes('/')) {
        networks.push(ipaddr.parseCIDR(entry));
      } else {
        const address = ipaddr.parse(entry);
        networks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      bad.push(entry);
    }
  }
  return { networks, bad };
}

/**
 * Whether `address` (a client's, as Fastify reports it: maybe an IPv4-mapped IPv6 address) lies in one of
 * `networks`. An address that does not parse is in none.
 */
export function inNetworks(address: string, networks: readonly Network[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const client = ipaddr.process(address);
  return networks.some(([base, bits]) => {
    if (client.kind() === base.kind()) return client.match([base, bits] as never);
    // An IPv4 client against an IPv6 network: its IPv4-mapped form (::ffff:a.b.c.d) may be inside.
    if (client instanceof ipaddr.IPv4 && base instanceof ipaddr.IPv6)
      return client.toIPv4MappedAddress().match(base, bits);
    return false;
  });
}
