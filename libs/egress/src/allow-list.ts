import ipaddr from 'ipaddr.js';
import { normalizeHostName } from './address-policy';

// TRANSLOAD_ALLOW_HOSTS, WEBHOOK_ALLOW_HOSTS: operator-approved exceptions to the SSRF guard (hosts,
// IPs or CIDRs), e.g. an internal media bucket, or 127.0.0.1 in tests.
export class AllowList {
  private constructor(
    private readonly hosts: ReadonlySet<string>,
    private readonly networks: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>,
  ) {}

  static readonly empty = new AllowList(new Set(), []);

  // Throws on an entry that is neither a host name, an IP nor a CIDR, so a typo fails the boot.
  // `variable` names the setting in the error, so a bad entry points at the right one.
  static parse(raw: string | undefined, variable = 'TRANSLOAD_ALLOW_HOSTS'): AllowList {
    const hosts = new Set<string>();
    const networks: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
    for (const entry of (raw ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
      const bare = normalizeHostName(entry);
      if (ipaddr.isValidCIDR(bare)) networks.push(ipaddr.parseCIDR(bare));
      else if (ipaddr.isValid(bare)) {
        const address = ipaddr.process(bare);
        networks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(bare)) hosts.add(bare);
      else throw new Error(`${variable}: "${entry}" is not a host name, an IP address or a CIDR`);
    }
    return new AllowList(hosts, networks);
  }

  allowsHost(hostName: string): boolean {
    return this.hosts.has(normalizeHostName(hostName));
  }

  allowsAddress(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    // An IPv4-mapped IPv6 address matches the IPv4 entries.
    const parsed = ipaddr.process(address);
    return this.networks.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits));
  }
}
