import { AllowList } from './allow-list';

describe('AllowList', () => {
  it('allows listed IP addresses and nothing else', () => {
    const list = AllowList.parse('127.0.0.1');
    expect(list.allowsAddress('127.0.0.1')).toBe(true);
    expect(list.allowsAddress('127.0.0.2')).toBe(false);
  });

  it('allows every address inside a listed CIDR', () => {
    const list = AllowList.parse('10.20.0.0/16, fd00::/8');
    expect(list.allowsAddress('10.20.5.6')).toBe(true);
    expect(list.allowsAddress('10.21.0.1')).toBe(false);
    expect(list.allowsAddress('fd00::5')).toBe(true);
  });

  it('matches IPv4-mapped IPv6 addresses against IPv4 entries', () => {
    expect(AllowList.parse('127.0.0.1').allowsAddress('::ffff:127.0.0.1')).toBe(true);
  });

  it('accepts a bracketed IPv6 literal', () => {
    expect(AllowList.parse('[::1]').allowsAddress('::1')).toBe(true);
  });

  it('allows listed host names case-insensitively', () => {
    const list = AllowList.parse('media.internal,Files.Example.com');
    expect(list.allowsHost('MEDIA.internal')).toBe(true);
    expect(list.allowsHost('files.example.com.')).toBe(true);
    expect(list.allowsHost('other.example.com')).toBe(false);
  });

  it('is empty when the variable is unset or blank', () => {
    expect(AllowList.parse(undefined).allowsAddress('127.0.0.1')).toBe(false);
    expect(AllowList.parse(' , ').allowsHost('localhost')).toBe(false);
  });

  it('refuses an entry that is neither a host, an IP nor a CIDR', () => {
    expect(() => AllowList.parse('127.0.0.1,http://evil/')).toThrow('"http://evil/"');
  });
});
