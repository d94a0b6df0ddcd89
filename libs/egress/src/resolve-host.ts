import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

// Every address the name has: all of them are vetted, so one private record among public ones is refused.
export type ResolveHost = (hostName: string) => Promise<ResolvedAddress[]>;

export const resolveWithSystemDns: ResolveHost = async (hostName) => {
  const addresses = await lookup(hostName, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};
