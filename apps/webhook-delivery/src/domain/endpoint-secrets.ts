import { randomBytes } from 'node:crypto';

// whsec_ + 24 random bytes in base64 (Standard Webhooks' secret format: 192 bits, within its 24-64 bytes).
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface EndpointSecrets {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

// A rotation: the new secret signs from now on, the old one too until the grace ends.
export function rotateSecret(current: EndpointSecrets, now: Date, graceMs: number, next = newWebhookSecret()): EndpointSecrets {
  return { secret: next, previous_secret: current.secret, previous_secret_expires_at: new Date(now.getTime() + graceMs) };
}

// The secrets that sign a delivery sent at `now`: the current one, and the previous during its grace.
export function signingSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  const previousValid = endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now;
  return previousValid ? [endpoint.secret, endpoint.previous_secret as string] : [endpoint.secret];
}
