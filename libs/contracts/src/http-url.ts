// A URL our services may fetch or call for a user: http or https, with a host, without credentials
// (they would be sent on), of at most `maxLength` characters. Where it points is vetted later, address
// by address, by the SSRF guard.
export function isHttpUrl(value: unknown, maxLength: number): value is string {
  if (typeof value !== 'string' || value.length > maxLength) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}
