import { isHttpUrl } from '../http-url';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

// Where a receiver may be reached: checked again, address by address, by the SSRF guard at every attempt.
export function isWebhookUrl(value: unknown): boolean {
  return isHttpUrl(value, WEBHOOK_URL_MAX_LENGTH);
}
