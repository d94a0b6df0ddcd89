import { STREAM_SUBJECTS, STREAMS, type StreamName } from '@vj/contracts';
import { nanos, RetentionPolicy, StorageType, type JetStreamManager, type NatsConnection, type StreamConfig } from 'nats';
import { isNotFound } from './api-errors';
import { retryOnTimeout } from './api-retry';

const DUPLICATE_WINDOW = nanos(2 * 60_000);
const SEVEN_DAYS = nanos(7 * 24 * 3600_000);

type StreamSettings = Omit<Partial<StreamConfig>, 'name' | 'subjects'>;

// Work and reports are queues (a message leaves once acked); job and billing events are 7-day logs any
// service may replay.
export const STREAM_SETTINGS: Record<StreamName, StreamSettings> = {
  [STREAMS.work]: { retention: RetentionPolicy.Workqueue, storage: StorageType.File, duplicate_window: DUPLICATE_WINDOW },
  [STREAMS.reports]: { retention: RetentionPolicy.Workqueue, storage: StorageType.File, duplicate_window: DUPLICATE_WINDOW },
  [STREAMS.jobEvents]: {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: SEVEN_DAYS,
    duplicate_window: DUPLICATE_WINDOW,
  },
  [STREAMS.billingEvents]: {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: SEVEN_DAYS,
    duplicate_window: DUPLICATE_WINDOW,
  },
  // A day of each job's updates, for a client that follows it or comes back; a job that runs long keeps
  // its latest 1,000 (progress is at most one a second and one a percent).
  [STREAMS.jobUpdates]: {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(24 * 3600_000),
    max_msgs_per_subject: 1000,
    duplicate_window: DUPLICATE_WINDOW,
  },
  // Kept a month for an operator; replayed or deleted one by one.
  [STREAMS.deadLetters]: {
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(30 * 24 * 3600_000),
    duplicate_window: DUPLICATE_WINDOW,
  },
};

// Every stream on three servers when the cluster has them (docker-compose.yml runs three), so losing a
// node loses no message; one on a single server. Found from the servers the connection was told about.
export function streamReplicas(nc: Pick<NatsConnection, 'info'>): number {
  return Math.min(3, Math.max(1, nc.info?.connect_urls?.length ?? 1));
}

// Idempotent: every service calls it at boot, whichever starts first creates the streams. Given the
// connection, the streams are replicated across the cluster (streamReplicas); given a manager, R1.
export async function ensureStreams(source: NatsConnection | JetStreamManager): Promise<void> {
  const isConnection = 'jetstreamManager' in source;
  const jsm = isConnection ? await source.jetstreamManager() : source;
  const num_replicas = isConnection ? streamReplicas(source) : 1;
  for (const [name, settings] of Object.entries(STREAM_SETTINGS)) {
    const config = { ...settings, name, subjects: STREAM_SUBJECTS[name as StreamName], num_replicas };
    await retryOnTimeout(() => ensureStream(jsm, config));
  }
}

async function ensureStream(jsm: JetStreamManager, config: Partial<StreamConfig> & { name: string }): Promise<void> {
  let existing: StreamConfig;
  try {
    existing = (await jsm.streams.info(config.name)).config;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await addOrUpdate(() => jsm.streams.add(config), () => jsm.streams.update(config.name, config));
    return;
  }
  // Never fewer replicas: a service that boots while a node is down sees two servers, not three.
  await jsm.streams.update(config.name, { ...config, num_replicas: Math.max(existing.num_replicas, config.num_replicas ?? 1) });
}

// Two services booting together can both see "not found"; the loser updates instead.
async function addOrUpdate(add: () => Promise<unknown>, update: () => Promise<unknown>): Promise<void> {
  try {
    await add();
  } catch {
    await update();
  }
}
