import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './resolve-host';

// The socket connects to the address that was vetted, never to a second DNS answer (DNS rebinding).
export function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostName, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
