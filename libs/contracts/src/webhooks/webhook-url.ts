export const WEBHOOK_URL_MAX_LENGTH = 2048;

// Where a receiver may be reached: checked again, address by address, by the SSRF guard at every attempt.
export function isWebhookUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > WEBHOOK_URL_MAX_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}
