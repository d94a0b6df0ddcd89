import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

// The well-known NAT64 prefix carries an IPv4 address in its last 32 bits (RFC 6052).
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

// Only globally routable unicast addresses may be fetched; every other range ipaddr.js names
// (loopback, private, linkLocal incl. 169.254.169.254, carrierGradeNat, uniqueLocal, multicast,
// reserved, broadcast, unspecified, tunnels...) is refused.
export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'invalid' };
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return verdictFor(parsed.range());
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) {
    const verdict = verdictFor(embedded.range());
    return verdict.allowed ? verdict : { allowed: false, range: `${v6.range()}:${verdict.range}` };
  }
  const range = v6.range();
  if (range === 'unicast' && isIPv4Compatible(v6)) return { allowed: false, range: 'ipv4Compatible' };
  return verdictFor(range);
}

function verdictFor(range: string): AddressVerdict {
  return range === 'unicast' ? { allowed: true } : { allowed: false, range };
}

// IPv6 forms that reach an IPv4 host are judged by that host's address.
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = v6.range();
  const translated = range === 'ipv4Mapped' || range === 'rfc6145' || v6.match(NAT64_WELL_KNOWN);
  if (!translated) return null;
  const [high, low] = [v6.parts[6], v6.parts[7]];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

// Deprecated ::a.b.c.d (RFC 4291 2.5.5.1): never a legitimate destination.
function isIPv4Compatible(v6: ipaddr.IPv6): boolean {
  return v6.parts.slice(0, 6).every((part) => part === 0);
}

// Names that only mean something inside a network: cloud metadata (metadata.google.internal,
// *.ec2.internal), mDNS, localhost, and single-label names that a resolver's search path would expand.
const INTERNAL_SUFFIXES = ['.internal', '.local', '.localhost', '.localdomain', '.home.arpa', '.intranet', '.lan'];

export function isBlockedHostName(hostName: string): boolean {
  const name = normalizeHostName(hostName);
  if (name === 'localhost' || !name.includes('.')) return true;
  return INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

export function normalizeHostName(hostName: string): string {
  return hostName.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}
