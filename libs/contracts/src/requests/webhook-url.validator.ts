import { registerDecorator, type ValidationOptions } from 'class-validator';

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

export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `$property must be an http(s) URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters without credentials`, ...options },
      validator: { validate: isWebhookUrl },
    });
}
