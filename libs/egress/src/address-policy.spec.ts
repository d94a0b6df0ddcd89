import { classifyAddress, isBlockedHostName } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['93.184.216.34'],
    ['8.8.8.8'],
    ['172.32.0.1'],
    ['100.128.0.1'],
    ['2606:4700:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
  ])('allows the public unicast address %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['febf::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s as %s', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
  });

  it.each([
    ['::ffff:127.0.0.1', 'ipv4Mapped:loopback'],
    ['::ffff:10.0.0.1', 'ipv4Mapped:private'],
    ['::ffff:169.254.169.254', 'ipv4Mapped:linkLocal'],
    ['::ffff:7f00:1', 'ipv4Mapped:loopback'],
    ['64:ff9b::a00:1', 'rfc6052:private'],
  ])('judges the IPv4 address inside %s (%s)', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
  });

  it('refuses deprecated IPv4-compatible IPv6 addresses', () => {
    expect(classifyAddress('::7f00:1')).toEqual({ allowed: false, range: 'ipv4Compatible' });
  });

  it.each([['2002:7f00:1::1', '6to4'], ['2001:0:4136:e378::1', 'teredo']])('refuses the tunnel address %s', (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
  });

  it('refuses strings that are not IP addresses', () => {
    expect(classifyAddress('example.com')).toEqual({ allowed: false, range: 'invalid' });
  });
});

describe('isBlockedHostName', () => {
  it.each(['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'ip-10-0-0-1.ec2.internal', 'metadata', 'localhost', 'api.localhost', 'printer.local', 'nas.home.arpa', 'minio'])(
    'blocks the internal name %s',
    (name) => {
      expect(isBlockedHostName(name)).toBe(true);
    },
  );

  it.each(['example.com', 'cdn.example.co.uk', 'storage.googleapis.com', 'internal.example.com'])('lets the public name %s through', (name) => {
    expect(isBlockedHostName(name)).toBe(false);
  });
});
