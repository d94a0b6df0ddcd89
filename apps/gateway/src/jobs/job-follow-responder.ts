import { Inject, Injectable, Logger } from '@nestjs/common';
import { isFinalJobStatus, type JobObject, type JobType } from '@vj/contracts';
import type { ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { FollowJobService, type JobStreamEvent } from './follow-job.service';
import { preferredWaitSeconds } from './prefer-wait';
import { ReadJobsService } from './read-jobs.service';

// How long an EventSource waits before it reconnects after the stream drops (the SSE `retry` field).
const RECONNECT_MS = 3_000;

// The HTTP side of following a job: Prefer: wait on a create or a read (RFC 7240), and the SSE stream.
@Injectable()
export class JobFollowResponder {
  private readonly logger = new Logger(JobFollowResponder.name);

  constructor(
    private readonly follow: FollowJobService,
    private readonly readJobs: ReadJobsService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  // POST with Prefer: wait=N: the final job (200) when it ends within N seconds, else the usual 202
  // answer. The job exists already, so a wait that cannot be had (no follower slot left) is skipped,
  // never an error: the client must not create it again.
  async afterCreate(accountId: string, jobType: JobType, created: JobObject, prefer: string | undefined, res: ServerResponse): Promise<JobObject> {
    const seconds = preferredWaitSeconds(prefer);
    if (seconds === null || isFinalJobStatus(created.status)) return created;
    let release: () => void;
    try {
      release = this.follow.acquire(accountId);
    } catch {
      return created;
    }
    try {
      const job = await this.follow.waitForEnd(accountId, jobType, created.job_id, seconds, this.follow.signalFor(closedSignal(res)));
      res.setHeader('Preference-Applied', `wait=${seconds}`);
      if (!isFinalJobStatus(job.status)) return created;
      res.statusCode = 200;
      return job;
    } finally {
      release();
    }
  }

  // GET with Prefer: wait=N: the job once final, or as it is after N seconds (200 either way).
  async read(accountId: string, jobType: JobType, jobId: string, prefer: string | undefined, res: ServerResponse): Promise<JobObject> {
    const seconds = preferredWaitSeconds(prefer);
    if (seconds === null) return this.readJobs.get(accountId, jobType, jobId);
    const release = this.follow.acquire(accountId);
    try {
      const job = await this.follow.waitForEnd(accountId, jobType, jobId, seconds, this.follow.signalFor(closedSignal(res)));
      res.setHeader('Preference-Applied', `wait=${seconds}`);
      return job;
    } finally {
      release();
    }
  }

  // GET /v1/{type}/{job_id}/events: text/event-stream of the job's updates after Last-Event-ID,
  // heartbeats while nothing happens, closed after the final job object. A job unknown to the account
  // is a JSON 404 before the stream opens; a resume after the final event is 204 (the client stops).
  async stream(accountId: string, jobType: JobType, jobId: string, lastEventId: string | undefined, res: ServerResponse): Promise<void> {
    const job = await this.readJobs.get(accountId, jobType, jobId);
    const afterSeq = parseLastEventId(lastEventId);
    const release = this.follow.acquire(accountId);
    const signal = this.follow.signalFor(closedSignal(res));
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      if (afterSeq > 0 && isFinalJobStatus(job.status) && (await this.follow.endedBefore(jobId, afterSeq))) {
        res.statusCode = 204;
        res.end();
        return;
      }
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      // Proxies (nginx) would otherwise hold the events back.
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      res.write(`retry: ${RECONNECT_MS}\n\n`);
      heartbeat = setInterval(() => res.write(': heartbeat\n\n'), this.config.SSE_HEARTBEAT_SECONDS * 1000);
      for await (const event of this.follow.events(accountId, jobType, jobId, job, afterSeq, signal)) res.write(formatEvent(event));
    } catch (error) {
      // The headers are out: the client sees the stream end and reconnects from its last event.
      if (!res.headersSent) throw error;
      this.logger.warn(`job ${jobId} event stream ended early: ${String(error)}`);
    } finally {
      clearInterval(heartbeat);
      release();
      if (res.headersSent) res.end();
    }
  }
}

export function formatEvent(event: JobStreamEvent): string {
  const id = event.id === undefined ? '' : `id: ${event.id}\n`;
  return `${id}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

// Last-Event-ID is the seq of the last event the client saw; anything else starts from the beginning.
export function parseLastEventId(value: string | undefined): number {
  const trimmed = value?.trim() ?? '';
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : 0;
}

// Fires when the client goes away before the answer is done.
function closedSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}
