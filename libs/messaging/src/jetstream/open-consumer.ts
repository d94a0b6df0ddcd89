import type { Consumer, NatsConnection } from 'nats';
import { isStreamNotFound } from './api-errors';
import type { ConsumerSpec } from './consumer-spec';
import { ensureConsumer } from './ensure-consumer';
import { ensureStreams } from './streams';

// A durable consumer to read from, made where it is missing, and its stream made again where that is
// gone (deleted, or lost with every server's storage). Readers call it at start and again after a pull
// fails: a consumer deleted under a long-lived reader is otherwise never read again until a restart
// (nats.js waits for it to come back by itself). Every service makes the streams at boot; one that finds
// them gone later makes them the same way rather than wait for one to restart.
export async function openConsumer(nc: NatsConnection, spec: ConsumerSpec): Promise<Consumer> {
  const jsm = await nc.jetstreamManager();
  try {
    await ensureConsumer(jsm, spec);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    await ensureStreams(nc);
    await ensureConsumer(jsm, spec);
  }
  return nc.jetstream().consumers.get(spec.stream, spec.durable);
}
