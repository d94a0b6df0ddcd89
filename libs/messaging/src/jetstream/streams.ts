import { STREAM_SUBJECTS, STREAMS, type StreamName } from '@vj/contracts';
import { nanos, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from 'nats';
import { isNotFound } from './api-errors';

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
};

// Idempotent: every service calls it at boot, whichever starts first creates the streams.
export async function ensureStreams(jsm: JetStreamManager): Promise<void> {
  for (const [name, settings] of Object.entries(STREAM_SETTINGS)) {
    const config = { ...settings, name, subjects: STREAM_SUBJECTS[name as StreamName] };
    try {
      await jsm.streams.info(name);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await addOrUpdate(() => jsm.streams.add(config), () => jsm.streams.update(name, config));
      continue;
    }
    await jsm.streams.update(name, config);
  }
}

// Two services booting together can both see "not found"; the loser updates instead.
async function addOrUpdate(add: () => Promise<unknown>, update: () => Promise<unknown>): Promise<void> {
  try {
    await add();
  } catch {
    await update();
  }
}
