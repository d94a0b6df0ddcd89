import { Logger } from '@nestjs/common';
import { queueGroups, subjects, type HealthReplyV1, type ServiceName } from '@vj/contracts';
import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription } from 'nats';
import { decodeJson, encodeJson } from '../json-codec';
import { respondQuietly } from './respond-quietly';

const logger = new Logger('Health');

// Answers the gateway's readiness probe; a queue group means one instance answers each ping.
export function serveHealth(
  nc: NatsConnection,
  service: ServiceName,
  isReady: () => boolean | Promise<boolean>,
  instance: string = randomUUID(),
): Subscription {
  return nc.subscribe(subjects.health(service), {
    queue: queueGroups.health(service),
    callback: (error, msg) => {
      if (error) return logger.error(`health subscription: ${error.message}`);
      void Promise.resolve()
        .then(isReady)
        .catch(() => false)
        .then((ready) => {
          const reply: HealthReplyV1 = { version: 1, service, instance, ready };
          respondQuietly(msg, encodeJson(reply));
        });
    },
  });
}

// The reply of one instance, or null when none answered in time.
export async function pingHealth(nc: NatsConnection, service: ServiceName, timeoutMs = 1_000): Promise<HealthReplyV1 | null> {
  try {
    const msg = await nc.request(subjects.health(service), encodeJson({ version: 1 }), { timeout: timeoutMs });
    return decodeJson<HealthReplyV1>(msg.data);
  } catch {
    return null;
  }
}
