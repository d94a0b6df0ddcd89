import type { JobOptionsByType, JobType } from '@vj/contracts';
import type { JobResourceNames } from '../job-resource.controller';

// What every job type's create body carries besides its options.
export interface JobCreateBody {
  video_url: string;
  webhook_url?: string;
}

// One job type as the gateway serves it: its routes' names, the class its create body is validated
// and documented by, and its options with their defaults applied (the jobs service always gets
// complete options). The routes, validation and estimates are derived from it (job-type.controller.ts,
// parse-job-body.ts).
export interface GatewayJobType<T extends JobType, Body extends JobCreateBody> {
  names: JobResourceNames & { type: T };
  body: new () => Body;
  options(body: Body): JobOptionsByType[T];
}
