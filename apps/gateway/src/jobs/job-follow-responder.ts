import { Inject, Injectable, Logger } from '@nestjs/common';
import { isFinalJobStatus, type JobObject, type JobType } from '@vj/contracts';
import type { ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { END_EVENT_ID, FollowJobService, type JobStreamEvent } from './follow-job.service';
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
  // answer. The job exists already, so a wait that cannot be had (no follower slot left, the jobs
  // service not answering) is given up, never an error: the client must not create it again.
  async afterCreate(accountId: string, jobType: JobType, created: JobObject, prefer: string | undefined, res: ServerResponse): Promise<JobObject> {
    const seconds = preferredWaitSeconds(prefer);
    if (seconds === null || isFinalJobStatus(created.status)) return created;
    const follower = this.follow.tryFollow(accountId, res);
    if (!follower) return created;
    try {
      const job = await this.follow.waitForEnd(accountId, jobType, created.job_id, seconds, follower.signal);
      res.setHeader('Preference-Applied', `wait=${seconds}`);
      if (!isFinalJobStatus(job.status)) return created;
      res.statusCode = 200;
      return job;
    } catch (error) {
      this.logger.warn(`job ${created.job_id}: the create's wait failed, answering 202: ${String(error)}`);
      return created;
    } finally {
      follower.release();
    }
  }

  // GET with Prefer: wait=N: the job once final, or as it is after N seconds (200 either way). With
  // no follower slot left the read answers at once, like a create.
  async read(accountId: string, jobType: JobType, jobId: string, prefer: string | undefined, res: ServerResponse): Promise<JobObject> {
    const seconds = preferredWaitSeconds(prefer);
    const follower = seconds === null ? null : this.follow.tryFollow(accountId, res);
    if (seconds === null || !follower) return this.readJobs.get(accountId, jobType, jobId);
    try {
      const job = await this.follow.waitForEnd(accountId, jobType, jobId, seconds, follower.signal);
      res.setHeader('Preference-Applied', `wait=${seconds}`);
      return job;
    } finally {
      follower.release();
    }
  }

  // GET /v1/{type}/{job_id}/events: text/event-stream of the job's updates after Last-Event-ID,
  // heartbeats while nothing happens, closed after the final job object. A job unknown to the account
  // is a JSON 404 before the stream opens; a resume after the end is 204 (an EventSource stops).
  async stream(accountId: string, jobType: JobType, jobId: string, lastEventId: string | undefined, res: ServerResponse): Promise<void> {
    const follower = this.follow.follow(accountId, res);
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      const job = await this.readJobs.get(accountId, jobType, jobId);
      const resume = parseLastEventId(lastEventId);
      if (isFinalJobStatus(job.status) && (resume === END_EVENT_ID || (resume > 0 && (await this.follow.endedBefore(jobId, resume))))) {
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
      const afterSeq = resume === END_EVENT_ID ? 0 : resume;
      for await (const event of this.follow.events(accountId, jobType, jobId, job, afterSeq, follower.signal)) res.write(formatEvent(event));
    } catch (error) {
      // The headers are out: the client sees the stream end and reconnects from its last event.
      if (!res.headersSent) throw error;
      this.logger.warn(`job ${jobId} event stream ended early: ${String(error)}`);
    } finally {
      clearInterval(heartbeat);
      follower.release();
      if (res.headersSent) res.end();
    }
  }
}

export function formatEvent(event: JobStreamEvent): string {
  return `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

// Last-Event-ID is the seq of the last event the client saw, or END_EVENT_ID; anything else starts
// from the beginning.
export function parseLastEventId(value: string | undefined): number | typeof END_EVENT_ID {
  const trimmed = value?.trim() ?? '';
  if (trimmed === END_EVENT_ID) return END_EVENT_ID;
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : 0;
}
