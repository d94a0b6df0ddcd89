import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { isFinalJobStatus, type JobObject, type JobStatus, type JobType, type ProgressStage } from '@vj/contracts';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import { JOB_UPDATES_PORT, type JobUpdatesPort } from './job-updates-port';
import { ReadJobsService } from './read-jobs.service';
import { Wakeup } from './wakeup';

// The id of a final event sent without a stored update behind it.
export const END_EVENT_ID = 'end';

// One event of a job's SSE stream: id is the update's place in the job's stream (Last-Event-ID).
export interface JobStreamEvent {
  id: number | typeof END_EVENT_ID;
  event: `job.${'started' | 'progress' | 'completed' | 'failed' | 'cancelled'}`;
  data: JobObject | JobProgressData;
}

export interface JobProgressData {
  job_id: string;
  stage: ProgressStage;
  progress: number;
}

// Updates read at once; a job holds few more.
const READ_BATCH = 100;
// A follower with nothing heard looks at the job this often: a missed wake-up costs at most this.
const IDLE_CHECK_MS = 5_000;

const FINAL_EVENTS: Partial<Record<JobStatus, JobStreamEvent['event']>> = { COMPLETED: 'job.completed', FAILED: 'job.failed', CANCELLED: 'job.cancelled' };

// One client following a job: aborted when its connection closes or the gateway shuts down.
export interface Follower {
  signal: AbortSignal;
  release(): void;
}

// Follows one job for a client: its SSE events (GET /v1/{type}/{job_id}/events) and Prefer: wait.
// Each follower holds a slot of its account's (JOB_FOLLOWERS_PER_ACCOUNT on this instance), and all
// of them end when the gateway shuts down, so a deploy never waits on an open stream.
@Injectable()
export class FollowJobService implements BeforeApplicationShutdown {
  private readonly followers = new Map<string, number>();
  // One controller per follower, so the shutdown aborts each without a long-lived combined signal.
  private readonly active = new Set<AbortController>();
  private shuttingDown = false;

  constructor(
    @Inject(JOB_UPDATES_PORT) private readonly updates: JobUpdatesPort,
    private readonly readJobs: ReadJobsService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  // One of the account's follower slots, tied to the client's connection; null when none is left.
  tryFollow(accountId: string, res: ServerResponse): Follower | null {
    const open = this.followers.get(accountId) ?? 0;
    if (open >= this.config.JOB_FOLLOWERS_PER_ACCOUNT) return null;
    this.followers.set(accountId, open + 1);
    const controller = new AbortController();
    this.active.add(controller);
    const onClose = () => {
      if (!res.writableFinished) controller.abort(new Error('the client went away'));
    };
    res.once('close', onClose);
    // The client may have gone already, while the request waited for a service.
    if (res.destroyed || res.socket?.destroyed || this.shuttingDown) controller.abort(new Error('the client went away'));
    let released = false;
    return {
      signal: controller.signal,
      release: () => {
        if (released) return;
        released = true;
        res.off('close', onClose);
        this.active.delete(controller);
        const left = (this.followers.get(accountId) ?? 1) - 1;
        if (left > 0) this.followers.set(accountId, left);
        else this.followers.delete(accountId);
      },
    };
  }

  // As tryFollow, 429 when the account has no slot left.
  follow(accountId: string, res: ServerResponse): Follower {
    const follower = this.tryFollow(accountId, res);
    if (!follower) {
      throw ApiError.rateLimited(`at most ${this.config.JOB_FOLLOWERS_PER_ACCOUNT} event streams and waits may be open at once per account`, 1);
    }
    return follower;
  }

  // The job once it is final, or as it is when `seconds` run out or the signal fires.
  async waitForEnd(accountId: string, jobType: JobType, jobId: string, seconds: number, signal: AbortSignal): Promise<JobObject> {
    const deadline = Date.now() + seconds * 1000;
    const wake = new Wakeup();
    const stop = this.updates.watch(jobId, (update) => {
      if (update.kind === 'state' && isFinalJobStatus(update.status)) wake.ring();
    });
    try {
      for (;;) {
        const job = await this.readJobs.get(accountId, jobType, jobId);
        const left = deadline - Date.now();
        if (isFinalJobStatus(job.status) || left <= 0 || signal.aborted) return job;
        await wake.wait(Math.min(left, IDLE_CHECK_MS), signal);
      }
    } finally {
      stop();
    }
  }

  // A client that resumes after the job's final event, or after anything stored once it ended, has
  // nothing more to hear (SSE's 204).
  async endedBefore(jobId: string, afterSeq: number): Promise<boolean> {
    const last = await this.updates.last(jobId);
    return last === null || last.seq <= afterSeq;
  }

  // The job's updates after afterSeq, in order, ending with the final job object. State changes carry
  // the job object as GET returns it then; progress carries the stage and the fraction done. Progress
  // stored after the end (a worker still stopping) is passed over.
  async *events(accountId: string, jobType: JobType, jobId: string, initial: JobObject, afterSeq: number, signal: AbortSignal): AsyncGenerator<JobStreamEvent> {
    const wake = new Wakeup();
    const stop = this.updates.watch(jobId, () => wake.ring());
    let cursor = afterSeq;
    let ended = isFinalJobStatus(initial.status);
    // Of a job that ended, progress is held until a state update shows it came before the end.
    let held: JobStreamEvent[] = [];
    try {
      while (!signal.aborted) {
        const batch = await this.updates.readAfter(jobId, cursor, READ_BATCH);
        for (const { seq, update } of batch) {
          cursor = seq;
          if (update.kind === 'progress') {
            const event: JobStreamEvent = { id: seq, event: 'job.progress', data: { job_id: jobId, stage: update.stage, progress: update.progress } };
            if (ended) held.push(event);
            else yield event;
            continue;
          }
          yield* held;
          held = [];
          yield { id: seq, event: `job.${update.event}`, data: await this.readJobs.get(accountId, jobType, jobId) };
          if (isFinalJobStatus(update.status)) return;
        }
        if (batch.length === READ_BATCH) continue;
        // Final, and its update expired or not relayed yet: the job object says it all. Its id is the
        // last one read (or END_EVENT_ID), so a reconnect gets the 204 that stops an EventSource.
        if (ended) {
          const job = await this.readJobs.get(accountId, jobType, jobId);
          yield { id: cursor > 0 ? cursor : END_EVENT_ID, event: FINAL_EVENTS[job.status] ?? 'job.completed', data: job };
          return;
        }
        if (!(await wake.wait(IDLE_CHECK_MS, signal)) && !signal.aborted) {
          ended = isFinalJobStatus((await this.readJobs.get(accountId, jobType, jobId)).status);
        }
      }
    } finally {
      stop();
    }
  }

  beforeApplicationShutdown(): void {
    this.shuttingDown = true;
    for (const controller of this.active) controller.abort(new Error('the gateway is shutting down'));
  }
}
