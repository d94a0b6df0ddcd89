import type { WebhooksRpc } from '@vj/contracts';
import type { WebhooksPort } from '../src/webhooks/webhooks-port';

type Method = keyof WebhooksRpc;

// Answers each method with what `answers` holds (or throws it), and records every call.
export class FakeWebhooks implements WebhooksPort {
  readonly calls: { method: Method; request: unknown }[] = [];
  readonly answers: Partial<{ [M in Method]: WebhooksRpc[M]['reply'] | Error }> = {};

  async call<M extends Method>(method: M, request: WebhooksRpc[M]['request']): Promise<WebhooksRpc[M]['reply']> {
    this.calls.push({ method, request });
    const answer = this.answers[method];
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw new Error(`FakeWebhooks: no answer for ${method}`);
    return answer as WebhooksRpc[M]['reply'];
  }
}
