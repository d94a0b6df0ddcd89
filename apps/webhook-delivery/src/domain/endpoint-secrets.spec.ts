import { newWebhookSecret, rotateSecret, signingSecrets } from './endpoint-secrets';

describe('endpoint secrets', () => {
  it('are whsec_ secrets of 24 random bytes, never twice the same', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('sign with the new and the old secret during the grace, then with the new one only', () => {
    const now = new Date('2026-11-24T00:00:00Z');
    const rotated = rotateSecret({ secret: 'whsec_old', previous_secret: null, previous_secret_expires_at: null }, now, 3_600_000, 'whsec_new');
    expect(signingSecrets(rotated, now)).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, new Date(now.getTime() + 3_599_999))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, new Date(now.getTime() + 3_600_000))).toEqual(['whsec_new']);
  });
});
