import { ErrorCode, NatsError } from 'nats';

const ATTEMPTS = 5;

export function isTimeout(error: unknown): boolean {
  return error instanceof NatsError && error.code === ErrorCode.Timeout;
}

// A JetStream cluster leaves some API calls unanswered while it elects a stream's leader: services
// booting together create the same R3 streams at once (nats-server 2.9 lets nats.js's 5 s run out), as
// when a node is lost. The call is idempotent (an ensure), so it is made again, a few times at most.
export async function retryOnTimeout<T>(call: () => Promise<T>, attempts = ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts || !isTimeout(error)) throw error;
    }
  }
}
