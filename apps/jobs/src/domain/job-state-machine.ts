import { isFinalJobStatus, type JobError, type JobEventKind, type JobStatus, type StoredResultV1 } from '@vj/contracts';

// PROCESSING -> COMPLETED | FAILED | CANCELLED; final states never change.

export interface JobState {
  status: JobStatus;
  attempts: number;
}

export type JobCommand =
  // deadlineAt: the worker's own deadline for this attempt, when its report carries one.
  | { kind: 'start'; attempt: number; deadlineAt?: Date }
  | { kind: 'succeed'; result: StoredResultV1; mediaDurationSeconds: number }
  | { kind: 'fail'; error: JobError }
  | { kind: 'cancel' };

export interface JobChange {
  status: JobStatus;
  attempts: number;
  result?: StoredResultV1;
  media_duration_seconds?: number;
  error?: JobError;
  // A new deadline for the sweeper (set by a started report).
  deadline_at?: Date;
  finished: boolean;
}

export type Transition =
  | { outcome: 'applied'; change: JobChange; event: JobEventKind | null }
  // A duplicate or late report: acked, nothing written, nothing published.
  | { outcome: 'ignored'; reason: string }
  // A client asked for something the state forbids (cancel of a final job).
  | { outcome: 'conflict'; reason: string };

export function transition(state: JobState, command: JobCommand): Transition {
  if (isFinalJobStatus(state.status)) {
    const reason = `job is already ${state.status}`;
    return command.kind === 'cancel' ? { outcome: 'conflict', reason } : { outcome: 'ignored', reason };
  }
  switch (command.kind) {
    case 'start':
      // max, not ++: a redelivered started report must not count an attempt twice.
      if (command.attempt <= state.attempts) return { outcome: 'ignored', reason: `attempt ${command.attempt} already recorded` };
      return {
        outcome: 'applied',
        change: { status: 'PROCESSING', attempts: command.attempt, ...(command.deadlineAt && { deadline_at: command.deadlineAt }), finished: false },
        event: null,
      };
    case 'succeed':
      return {
        outcome: 'applied',
        change: { status: 'COMPLETED', attempts: state.attempts, result: command.result, media_duration_seconds: command.mediaDurationSeconds, finished: true },
        event: 'completed',
      };
    case 'fail':
      return { outcome: 'applied', change: { status: 'FAILED', attempts: state.attempts, error: command.error, finished: true }, event: 'failed' };
    case 'cancel':
      return { outcome: 'applied', change: { status: 'CANCELLED', attempts: state.attempts, finished: true }, event: 'cancelled' };
  }
}
