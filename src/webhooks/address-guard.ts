import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { DomainError } from '../domain/errors.ts';

/**
 * Keeps webhook deliveries off the service's own network (SSRF): a customer-supplied URL must not
 * reach loopback, the LAN, cloud metadata (169.254.169.254) or anything else non-public.
 * Checked when the URL is saved (a clear error for the user) and again when connecting, because
 * DNS may answer differently later (rebinding). `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) turns both
 * off for self-hosted installs and tests whose receivers live on a private network.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
// ::/96 covers the unspecified and loopback addresses and the old IPv4-compatible form; Teredo
// (2001::/32) hides its IPv4 client address, so it is refused whole. BlockList matches IPv4-mapped
// addresses (::ffff:a.b.c.d) against the IPv4 rules by itself.
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');
// ::ffff:0:0:0/96 (SIIT, "IPv4-translated") and 64:ff9b:1::/48 (local-use NAT64) can reach internal
// IPv4 hosts through a translator; neither is a public destination, so both are refused whole.

/** True for any address a webhook must not reach by default; non-addresses count as private. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family !== 6) return true;
  if (blocked.check(ip, 'ipv6')) return true;
  const embedded = embeddedIpv4(ip);
  return embedded !== null && blocked.check(embedded, 'ipv4');
}

/** The IPv4 address carried inside NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses. */
function embeddedIpv4(ip: string): string | null {
  const g = ipv6Groups(ip);
  const quad = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return quad(g[6]!, g[7]!);
  if (g[0] === 0x2002) return quad(g[1]!, g[2]!);
  return null;
}

function ipv6Groups(ip: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  const hex = dotted
    ? `${ip.slice(0, dotted.index)}${((+dotted[1]! << 8) | +dotted[2]!).toString(16)}:${((+dotted[3]! << 8) | +dotted[4]!).toString(16)}`
    : ip;
  const [head = '', tail] = hex.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((x) => parseInt(x, 16));
}

function privateAddressError(host: string, address: string): DomainError {
  const via = host === address ? '' : ` resolves to ${address}, which`;
  return new DomainError(
    'private_address',
    `Webhook host "${host}"${via} is a private, loopback or otherwise non-public address; deliveries there are refused (a self-hosted install can allow them with WEBHOOK_ALLOW_PRIVATE=true).`,
    { host, address },
  );
}

/** URL hostnames keep IPv6 literals in brackets; an IP literal is connected to without any lookup. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

/** Connection-time check for IP literals, which never pass through `guardedLookup`. */
export function refusePrivateLiteral(url: URL): void {
  const address = literalAddress(url);
  if (address !== null && isPrivateAddress(address)) throw privateAddressError(url.hostname, address);
}

/**
 * A dns.lookup for the HTTP client that fails the connection if the name resolves to any
 * non-public address (one bad answer among good ones is enough: the client may pick it).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(privateAddressError(hostname, bad.address), '');
    const first = addresses[0];
    if (options.all || !first) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
};

function invalid(message: string): DomainError {
  return new DomainError('invalid_webhook_url', message);
}

/**
 * Save-time validation: a well-formed https URL (http only when private addresses are allowed,
 * i.e. for local receivers), no credentials, and, unless allowed, a host that resolves only to
 * public addresses. Returns the normalized URL to store.
 */
export async function validateWebhookUrl(raw: string, opts: { allowPrivate: boolean }): Promise<string> {
  const text = raw.trim();
  if (text.length > 2000) throw invalid('The webhook address is longer than 2000 characters.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`"${text}" is not an absolute URL; use the form https://example.com/webhooks/escucha.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && opts.allowPrivate)) {
    throw invalid(
      'The webhook address must start with https:// (plain http:// is accepted only when WEBHOOK_ALLOW_PRIVATE is set, for local testing).',
    );
  }
  if (url.username || url.password) {
    throw invalid(
      'The webhook address must not contain a user name or password; every delivery is signed with the endpoint secret instead.',
    );
  }
  if (!opts.allowPrivate) {
    refusePrivateLiteral(url);
    if (literalAddress(url) === null) {
      const addresses = await dns.promises.lookup(url.hostname, { all: true }).catch(() => {
        throw invalid(`The host "${url.hostname}" of the webhook address could not be resolved.`);
      });
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad) throw privateAddressError(url.hostname, bad.address);
    }
  }
  return url.toString();
}
