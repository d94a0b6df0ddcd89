import { CONSUMERS, STREAMS, subjects } from '@vj/contracts';
import type { ConsumerSpec } from '@vj/messaging';
import type { RenderWorkerConfig } from './render-worker.env';

// Past this a delivery's keep-alives stop and JetStream redelivers it: the fetch and the longest job
// type limit, plus room for the upload.
export const UPLOAD_MARGIN_MS = 10 * 60_000;

export function workConsumer(config: RenderWorkerConfig): ConsumerSpec {
  return {
    stream: STREAMS.work,
    durable: CONSUMERS.renderWorker,
    filterSubject: subjects.workAll(),
    subjects: subjects.workEvery(),
    ackWaitMs: config.WORK_ACK_WAIT_SECONDS * 1000,
    maxDeliver: config.WORK_MAX_DELIVER,
    concurrency: config.WORKER_CONCURRENCY,
    backoffMs: [10_000, 60_000],
    // The jobs service owns this consumer's MAX_DELIVERIES advisory (a worker that died on the last
    // attempt cannot report): it fails the job and removes the work message.
    advisoryDeadLetters: false,
    maxProcessingMs:
      (config.TRANSLOAD_TIMEOUT_SECONDS + Math.max(config.CLEAN_AUDIO_TIMEOUT_SECONDS, config.BACKGROUND_REMOVAL_TIMEOUT_SECONDS)) * 1000 + UPLOAD_MARGIN_MS,
  };
}
