import { isFinalJobStatus, type JobError, type JobEventKind, type JobStatus, type StoredResultV1 } from '@vj/contracts';

// PROCESSING -> COMPLETED | FAILED | CANCELLED; final states never change. Billing's facts ride along:
// a PROCESSING job is funded once (its work goes out then), and a charge is recorded whatever the status.

export interface JobState {
  status: JobStatus;
  attempts: number;
  failed_attempts: number;
  funded_at: Date | null;
  credits_charged: number | null;
}

export type JobCommand =
  // Billing held the estimate (hold_placed): the work may start.
  | { kind: 'fund' }
  // deadlineAt: the worker's own deadline for this attempt, when its report carries one.
  | { kind: 'start'; attempt: number; deadlineAt?: Date }
  | { kind: 'succeed'; result: StoredResultV1; mediaDurationSeconds: number }
  | { kind: 'fail'; error: JobError }
  // An attempt failed for a reason of ours and is retried: the count the worker reports (the largest wins).
  | { kind: 'record_failure'; failedAttempts: number }
  // The sweeper: past its deadline. Never started: it waited in the queue too long; else it ran too long.
  | { kind: 'expire' }
  | { kind: 'cancel' }
  // Billing charged the completed job (charge_captured).
  | { kind: 'charge'; credits: number };

export interface JobChange {
  status: JobStatus;
  attempts: number;
  failed_attempts?: number;
  result?: StoredResultV1;
  media_duration_seconds?: number;
  error?: JobError;
  // A new deadline for the sweeper (set by a started report).
  deadline_at?: Date;
  credits_charged?: number;
  // The job became funded now: its work message goes out in the same transaction.
  funded?: true;
  finished: boolean;
}

export type Transition =
  | { outcome: 'applied'; change: JobChange; event: JobEventKind | null }
  // A duplicate or late report: acked, nothing written, nothing published.
  | { outcome: 'ignored'; reason: string }
  // A client asked for something the state forbids (cancel of a final job).
  | { outcome: 'conflict'; reason: string };

export function transition(state: JobState, command: JobCommand): Transition {
  // charge_captured follows the completed event, so the job is final by then; a redelivery changes nothing.
  if (command.kind === 'charge') {
    if (state.credits_charged === command.credits) return { outcome: 'ignored', reason: `charge of ${command.credits} already recorded` };
    return { outcome: 'applied', change: { status: state.status, attempts: state.attempts, credits_charged: command.credits, finished: false }, event: null };
  }
  if (isFinalJobStatus(state.status)) {
    const reason = `job is already ${state.status}`;
    return command.kind === 'cancel' ? { outcome: 'conflict', reason } : { outcome: 'ignored', reason };
  }
  switch (command.kind) {
    case 'fund':
      // A redelivered hold_placed must not send the work twice.
      if (state.funded_at) return { outcome: 'ignored', reason: 'job is already funded' };
      return { outcome: 'applied', change: { status: 'PROCESSING', attempts: state.attempts, funded: true, finished: false }, event: null };
    case 'start':
      // max, not ++: a redelivered started report must not count an attempt twice.
      if (command.attempt <= state.attempts) return { outcome: 'ignored', reason: `attempt ${command.attempt} already recorded` };
      return {
        outcome: 'applied',
        change: { status: 'PROCESSING', attempts: command.attempt, ...(command.deadlineAt && { deadline_at: command.deadlineAt }), finished: false },
        // A job starts once: a retry's start is not news to a client.
        event: state.attempts === 0 ? 'started' : null,
      };
    case 'succeed':
      return {
        outcome: 'applied',
        change: { status: 'COMPLETED', attempts: state.attempts, result: command.result, media_duration_seconds: command.mediaDurationSeconds, finished: true },
        event: 'completed',
      };
    case 'fail':
      return { outcome: 'applied', change: { status: 'FAILED', attempts: state.attempts, error: command.error, finished: true }, event: 'failed' };
    case 'record_failure':
      if (command.failedAttempts <= state.failed_attempts) return { outcome: 'ignored', reason: `failure ${command.failedAttempts} already recorded` };
      return { outcome: 'applied', change: { status: 'PROCESSING', attempts: state.attempts, failed_attempts: command.failedAttempts, finished: false }, event: null };
    case 'expire':
      return { outcome: 'applied', change: { status: 'FAILED', attempts: state.attempts, error: expiryError(state), finished: true }, event: 'failed' };
    case 'cancel':
      return { outcome: 'applied', change: { status: 'CANCELLED', attempts: state.attempts, finished: true }, event: 'cancelled' };
  }
}

// docs/spec/api-v1.md `timeout`: processing exceeded the job type's time limit. A job no worker ever started
// was not processing: it says so (queue_timeout, JOB_QUEUE_TIMEOUT_SECONDS), and nothing was charged.
function expiryError(state: JobState): JobError {
  if (state.attempts > 0) return { code: 'timeout', message: 'processing exceeded the time limit of the job type', details: null };
  return {
    code: 'timeout',
    message: 'the job waited in the queue past its limit without starting',
    details: [{ type: 'queue_timeout', message: 'no worker started the job within JOB_QUEUE_TIMEOUT_SECONDS of its creation; nothing was charged' }],
  };
}
