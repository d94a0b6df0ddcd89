import type {
  CancelAccountJobsReplyV1,
  CancelAccountJobsRequestV1,
  CancelJobRequestV1,
  DeleteJobReplyV1,
  DeleteJobRequestV1,
  CreateJobReplyV1,
  CreateJobRequestV1,
  GetJobRequestV1,
  JobRecordV1,
  ListJobsReplyV1,
  ListJobsRequestV1,
  ReplayJobRequestV1,
} from '@vj/contracts';

// The gateway's view of the jobs service (its NATS RPC catalogue, JobsRpc in contracts). Behind a port
// so controllers and services test against a fake; messaging/jobs-rpc.adapter.ts binds it to NATS.
export interface JobsPort {
  create(request: CreateJobRequestV1): Promise<CreateJobReplyV1>;
  replay(request: ReplayJobRequestV1): Promise<CreateJobReplyV1 | null>;
  get(request: GetJobRequestV1): Promise<JobRecordV1>;
  list(request: ListJobsRequestV1): Promise<ListJobsReplyV1>;
  cancel(request: CancelJobRequestV1): Promise<JobRecordV1>;
  cancelAccount(request: CancelAccountJobsRequestV1): Promise<CancelAccountJobsReplyV1>;
  delete(request: DeleteJobRequestV1): Promise<DeleteJobReplyV1>;
}

export const JOBS_PORT = Symbol('JobsPort');

export const JOBS_SERVICE_ERROR_CODES = ['not_found', 'conflict', 'invalid_request', 'rate_limited', 'internal', 'unavailable'] as const;
export type JobsServiceErrorCode = (typeof JOBS_SERVICE_ERROR_CODES)[number];

// What a JobsPort throws when the jobs service refuses a call or cannot be reached; the code survives
// the wire and the error filter maps it to an HTTP status.
export class JobsServiceError extends Error {
  constructor(
    readonly code: JobsServiceErrorCode,
    message: string,
  ) {
    super(message);
  }
}
