import { isIP } from 'node:net';

/**
 * Absolute URLs (gateway return URLs, the sandbox gateway's page) come only from configuration
 * (docs/decisions/006-absolute-urls-from-configuration.md): PUBLIC_URL; without it, a Host of the ALLOWED_HOSTS
 * list; otherwise the default origin http://localhost:${PORT}. This module holds the pure parts, shared by
 * config.ts (which parses the variables) and the request-time choice.
 */

/** One ALLOWED_HOSTS entry, or a Host header: a lower-cased hostname (IPv6 in brackets) and maybe a port. */
export type HostAndPort = { hostname: string; port: number | null };

/** The loopback names a developer's browser uses; any port. */
export const defaultAllowedHosts: HostAndPort[] = [
  { hostname: 'localhost', port: null },
  { hostname: '127.0.0.1', port: null },
  { hostname: '[::1]', port: null },
];

const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** `name(.name)*` or `[ipv6]`, then maybe `:port` — nothing else (no user info, path, query, fragment or spaces). */
const hostPattern = new RegExp(`^(?:(${label}(?:\\.${label})*)|\\[([0-9a-f:.]+)\\])(?::([0-9]{1,5}))?$`, 'i');

/**
 * Parses a Host header value (or an ALLOWED_HOSTS entry) strictly; null when it is anything but a hostname, IPv4
 * or bracketed IPv6 address with an optional port. The hostname comes back in the URL standard's canonical form.
 */
export function parseHost(value: string): HostAndPort | null {
  const match = hostPattern.exec(value.trim());
  if (!match) return null;
  const [, name, ipv6, portText] = match;
  if (ipv6 !== undefined && isIP(ipv6) !== 6) return null;
  const port = portText === undefined ? null : Number(portText);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${name ?? `[${ipv6}]`}`).hostname;
  } catch {
    return null;
  }
  return { hostname, port };
}

const effectivePort = (port: number | null, protocol: 'http' | 'https') => port ?? (protocol === 'https' ? 443 : 80);

/** Whether `host` (as the origin would use it) is on the list: same hostname, and the entry's port if it names one. */
export function isAllowedHost(host: HostAndPort, protocol: 'http' | 'https', allowed: HostAndPort[]): boolean {
  return allowed.some(
    (entry) =>
      entry.hostname === host.hostname && (entry.port === null || entry.port === effectivePort(host.port, protocol)),
  );
}

/** `protocol://hostname[:port]`, normalised as browsers do (no default port). */
export function originOf(protocol: 'http' | 'https', host: HostAndPort): string {
  return new URL(`${protocol}://${host.hostname}${host.port === null ? '' : `:${host.port}`}`).origin;
}

/** What the request says about where it was addressed: Fastify's host and protocol (forwarded ones only when trusted). */
export type RequestAddress = { host: string; protocol: string };

/**
 * The origin for absolute URLs made while answering a request: PUBLIC_URL when configured; else the request's host
 * and protocol when the host is allowed and the protocol is http or https; else `fallback`.
 */
export function chooseOrigin(
  request: RequestAddress,
  options: { publicUrl: string | undefined; allowedHosts: HostAndPort[]; fallback: string },
): { origin: string; fromRequest: boolean } {
  if (options.publicUrl) return { origin: options.publicUrl, fromRequest: false };
  const protocol = request.protocol === 'https' || request.protocol === 'http' ? request.protocol : null;
  const host = parseHost(request.host);
  if (protocol && host && isAllowedHost(host, protocol, options.allowedHosts)) {
    return { origin: originOf(protocol, host), fromRequest: true };
  }
  return { origin: options.fallback, fromRequest: false };
}

/** Proxy-addr's named ranges, which Fastify's trustProxy accepts in its list. */
const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TRUST_PROXY list entry: an IP address, a CIDR range (address/prefix or IPv4 address/netmask) or a named range. */
export function isProxyAddressEntry(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^[0-9]{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * The origin of absolute URLs made without a request, or for documents that outlive one (the verification link and
 * QR code of a certificate PDF, which the worker renders too): PUBLIC_URL, else the default http://localhost:${PORT}.
 */
export function configuredOrigin(config: { publicUrl: string | undefined; port: number }): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}
