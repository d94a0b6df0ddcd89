import { Webhook } from 'standardwebhooks';

// Standard Webhooks (standardwebhooks.com): HMAC-SHA256 over "<id>.<timestamp>.<body>" with the
// endpoint's whsec_ secret, as "v1,<base64>". During a rotation's grace period both the new and the
// old secret sign, space-separated, so a receiver still holding the old one verifies too.
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signWebhook(secrets: readonly string[], messageId: string, timestamp: Date, body: string): SignedHeaders {
  if (secrets.length === 0) throw new Error('a webhook needs at least one secret');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' '),
  };
}
