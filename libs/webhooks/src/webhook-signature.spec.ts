import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signWebhook } from './webhook-signature';

const secret = () => `whsec_${randomBytes(24).toString('base64')}`;

// Verified with the standardwebhooks package's own verify, as any receiver would.
describe('signWebhook', () => {
  const body = JSON.stringify({ type: 'job.completed', data: { job_id: 'j1' } });
  const at = new Date();

  it('signs as Standard Webhooks specifies, verifiable with the endpoint secret', () => {
    const key = secret();
    const headers = signWebhook([key], 'msg_1', at, body);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(new Webhook(key).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(key).verify(`${body} `, headers)).toThrow();
  });

  it('signs with both secrets during a rotation, so either verifies', () => {
    const [next, previous] = [secret(), secret()];
    const headers = signWebhook([next, previous], 'msg_2', at, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(previous).verify(body, signWebhook([next], 'msg_2', at, body))).toThrow();
  });
});
