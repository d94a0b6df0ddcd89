import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';

// Request/reply over one wildcard subscription per connection, as nats.js's own `request` does, minus
// its cost on every answered request: nats.js ends a request by cancelling it, and the cancel builds a
// NatsError (a stack trace) that nobody reads, 4-6 % of the gateway's CPU on job reads (decision 0061).
// Replies arrive on `<inbox>.<token>`; a token's request ends at its reply, its timeout, or the
// connection's end, whichever comes first.
export class ReplyInbox {
  private readonly prefix: string;
  private readonly subscription: Subscription;
  private readonly pending = new Map<string, Pending>();
  private nextToken = 0;

  private constructor(private readonly nc: NatsConnection) {
    this.prefix = `${createInbox()}.`;
    this.subscription = nc.subscribe(`${this.prefix}*`, { callback: (error, msg) => (error ? undefined : this.answer(msg)) });
    // Closed (the connection drained or closed, or the subscription refused): nothing will answer.
    void this.subscription.closed.then(() => this.failAll('the connection closed'), () => this.failAll('the reply subscription failed'));
  }

  static of(nc: NatsConnection): ReplyInbox {
    let inbox = INBOXES.get(nc);
    if (!inbox || inbox.subscription.isClosed()) {
      inbox = new ReplyInbox(nc);
      INBOXES.set(nc, inbox);
    }
    return inbox;
  }

  request(subject: string, data: Uint8Array, options: { timeout: number; headers?: MsgHdrs }): Promise<Uint8Array> {
    const token = String(this.nextToken++);
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => this.end(token)?.reject(new Error('TIMEOUT')), options.timeout);
      this.pending.set(token, { resolve, reject, timer });
      try {
        this.nc.publish(subject, data, { reply: this.prefix + token, headers: options.headers });
      } catch (error) {
        this.end(token)?.reject(error);
      }
    });
  }

  private answer(msg: Msg): void {
    const request = this.end(msg.subject.slice(this.prefix.length));
    if (!request) return; // its timeout came first
    // The server's status 503 with no payload: no subscriber took the request. The headers are parsed
    // on first access, so only for an empty reply.
    if (msg.data.length === 0 && msg.headers?.code === 503) request.reject(new Error('503 no responders'));
    else request.resolve(msg.data);
  }

  private end(token: string): Pending | undefined {
    const request = this.pending.get(token);
    if (!request) return undefined;
    this.pending.delete(token);
    clearTimeout(request.timer);
    return request;
  }

  private failAll(reason: string): void {
    for (const token of [...this.pending.keys()]) this.end(token)?.reject(new Error(reason));
  }
}

interface Pending {
  resolve(data: Uint8Array): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

const INBOXES = new WeakMap<NatsConnection, ReplyInbox>();
