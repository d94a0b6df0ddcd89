import { AllowList } from './allow-list';
import type { ResolveHost } from './resolve-host';
import { DestinationRefused } from './destination-refused';
import { vetDestination } from './vet-destination';

const dns = (table: Record<string, string[]>): ResolveHost => async (host) => {
  const addresses = table[host];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

async function refusal(url: string, table: Record<string, string[]> = {}, allow = ''): Promise<DestinationRefused> {
  const error = await vetDestination(new URL(url), { allowList: AllowList.parse(allow), resolve: dns(table) }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DestinationRefused);
  return error as DestinationRefused;
}

describe('vetDestination', () => {
  it('returns the resolved public address to connect to', async () => {
    const target = await vetDestination(new URL('https://cdn.example.com/v.mp4'), {
      allowList: AllowList.empty,
      resolve: dns({ 'cdn.example.com': ['93.184.216.34'] }),
    });
    expect(target).toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('refuses schemes other than http and https', async () => {
    expect((await refusal('file:///etc/passwd')).rule).toBe('scheme');
    expect((await refusal('ftp://example.com/v.mp4')).rule).toBe('scheme');
  });

  it('refuses a name with any private address among its records', async () => {
    const error = await refusal('http://mixed.example.com/', { 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] });
    expect(error.rule).toBe('blocked_address');
    expect(error.message).toContain('10.0.0.7');
  });

  it('refuses the cloud metadata address given as a literal', async () => {
    expect((await refusal('http://169.254.169.254/latest/meta-data/')).rule).toBe('blocked_address');
  });

  it('refuses IPv6 literals of loopback and IPv4-mapped private addresses', async () => {
    expect((await refusal('http://[::1]:8080/')).rule).toBe('blocked_address');
    expect((await refusal('http://[::ffff:192.168.0.1]/')).rule).toBe('blocked_address');
  });

  it('refuses numeric spellings of loopback that URL parsing normalizes', async () => {
    expect((await refusal('http://2130706433/')).rule).toBe('blocked_address');
    expect((await refusal('http://0x7f.1/')).rule).toBe('blocked_address');
  });

  it('refuses internal host names before resolving them', async () => {
    const error = await refusal('http://metadata.google.internal/computeMetadata/v1/', { 'metadata.google.internal': ['93.184.216.34'] });
    expect(error.rule).toBe('blocked_host_name');
  });

  it('reports a name that does not resolve as a DNS failure', async () => {
    const error = await refusal('http://nowhere.example.com/');
    expect(error.rule).toBe('dns');
    expect(error.message).toContain('ENOTFOUND');
  });

  it('lets an allow-listed address through', async () => {
    const target = await vetDestination(new URL('http://127.0.0.1:9000/'), { allowList: AllowList.parse('127.0.0.1'), resolve: dns({}) });
    expect(target.address).toBe('127.0.0.1');
  });

  it('lets an allow-listed host name through whatever it resolves to', async () => {
    const target = await vetDestination(new URL('http://media.internal/'), {
      allowList: AllowList.parse('media.internal'),
      resolve: dns({ 'media.internal': ['10.1.1.1'] }),
    });
    expect(target.address).toBe('10.1.1.1');
  });
});
