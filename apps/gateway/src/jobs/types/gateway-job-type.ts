import type { JobOptionsByType, JobType, JobTypeDefinition } from '@vj/contracts';
import type { SchemaId } from '@vj/http-contracts';
import type { JobResourceNames } from '../job-resource.controller';

// What every job type's create body carries besides its options.
export interface JobCreateBody {
  video_url: string;
  webhook_url?: string;
}

// An upload:// URL among a job's options, besides its video_url: the create checks it is the caller's
// own, stored as declared, with one of these content types.
export interface OptionUpload {
  field: string;
  url: string;
  contentTypes: readonly string[];
}

// What an export's body carries besides its options (decision 0093).
export interface JobExportBody {
  webhook_url?: string;
}

// A job type whose COMPLETED jobs can be delivered again without the model: the class its export body
// is validated and documented by, and the export's options, from that body and the source job's.
export interface JobTypeExports<T extends JobType, Body extends JobExportBody> {
  body: new () => Body;
  options(body: Body, source: JobOptionsByType[T]): JobOptionsByType[T];
}

// One job type as the gateway serves it: its routes' names, the class its create body is validated
// and documented by, its options with their defaults applied (the jobs service always gets complete
// options), and the uploads those options name. The routes, validation and estimates are derived from
// it (job-type.controller.ts, parse-job-body.ts).
export interface GatewayJobType<T extends JobType, Body extends JobCreateBody> {
  names: JobResourceNames & { type: T };
  body: new () => Body;
  options(body: Body): JobOptionsByType[T];
  optionUploads?(options: JobOptionsByType[T]): OptionUpload[];
  exports?: JobTypeExports<T, JobExportBody>;
}

// A job type's route names, from its definition (libs/contracts job-types).
export function resourceNames<T extends JobType>(definition: JobTypeDefinition<T>): JobResourceNames & { type: T } {
  const { schema, reportSchema, operation, noun } = definition.names;
  return { type: definition.type, schema: schema as SchemaId, reportSchema: reportSchema as SchemaId, operation, noun };
}
