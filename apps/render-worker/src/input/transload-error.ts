import { JobFailure } from '../errors/job-failure';

// Which rule refused the fetch; it is the `type` of the job error's detail entry.
export type TransloadRule =
  | 'invalid_url'
  | 'scheme'
  | 'blocked_host_name'
  | 'blocked_address'
  | 'dns'
  | 'connection'
  | 'http_status'
  | 'redirect'
  | 'redirect_limit'
  | 'too_large'
  | 'timeout'
  | 'upload_missing';

export class TransloadError extends JobFailure {
  constructor(
    readonly rule: TransloadRule,
    reason: string,
  ) {
    super('transload_failed', `The video_url could not be fetched: ${reason}`, [
      { type: rule, message: reason, field: 'video_url' },
    ]);
  }
}
