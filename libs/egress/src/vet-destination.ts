import ipaddr from 'ipaddr.js';
import type { AllowList } from './allow-list';
import { classifyAddress, isBlockedHostName, normalizeHostName } from './address-policy';
import type { ResolvedAddress, ResolveHost } from './resolve-host';
import { DestinationRefused } from './destination-refused';

export interface DestinationPolicy {
  allowList: AllowList;
  resolve: ResolveHost;
}

// The SSRF guard of every request our services make to a URL a user gave (transloads, duration probes,
// webhooks): decides whether the URL may be reached and returns the one address to connect to. Throws
// DestinationRefused otherwise.
export async function vetDestination(url: URL, policy: DestinationPolicy): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DestinationRefused('scheme', `only http and https URLs can be fetched, not ${url.protocol}`);
  }
  const host = normalizeHostName(url.hostname);
  const hostAllowed = policy.allowList.allowsHost(host);
  const addresses = ipaddr.isValid(host) ? [literal(host)] : await resolveName(host, hostAllowed, policy.resolve);
  for (const { address } of addresses) {
    if (hostAllowed || policy.allowList.allowsAddress(address)) continue;
    const verdict = classifyAddress(address);
    if (!verdict.allowed) {
      throw new DestinationRefused('blocked_address', `${host} resolves to ${address}, a ${verdict.range} address that is not publicly routable`);
    }
  }
  return addresses[0];
}

function literal(host: string): ResolvedAddress {
  return { address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 };
}

async function resolveName(host: string, hostAllowed: boolean, resolve: ResolveHost): Promise<ResolvedAddress[]> {
  if (!hostAllowed && isBlockedHostName(host)) {
    throw new DestinationRefused('blocked_host_name', `${host} is an internal host name`);
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new DestinationRefused('dns', `${host} could not be resolved (${(error as { code?: string }).code ?? String(error)})`);
  }
  if (addresses.length === 0) throw new DestinationRefused('dns', `${host} has no addresses`);
  return addresses;
}
