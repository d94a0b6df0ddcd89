import type { StoredExportSourceV1, StoredQualityV1 } from '../job/stored-result';
import type { ExportPriceV1 } from '../pricing/price-list';

// The booleans among a job type's options: the ones a price may multiply.
export type BooleanOptionOf<O> = { [K in keyof O]: O[K] extends boolean ? K : never }[keyof O] & string;

// One job type as every process sees it (decision 0103): what routes, validation, pricing, dispatch
// and the job object are derived from. Each process adds its own part (the gateway its body class,
// the worker its processor), registered beside this one.
export interface JobTypeDefinition<T extends string = string> {
  // The wire name: the path segment, the work subject's last token, the database's job_type.
  readonly type: T;
  // The names the API documents it by: the job object's and the report's schemas, the suffix of its
  // OpenAPI operations and the noun its summaries and messages use. The SDK, the CLI and the web page
  // take theirs from the OpenAPI document, as any client of the public API does.
  readonly names: { schema: string; reportSchema: string; operation: string; noun: string };
  // Its options where a create leaves them out.
  readonly defaults: object;
  // The options a price may multiply (option_multipliers).
  readonly booleanOptions: readonly string[];
  // Its line in the built-in price list (billing's BILLING_PRICES_FILE replaces the whole list).
  readonly price: {
    credits_per_second: number;
    option_multipliers: Partial<Record<string, number>>;
    minimum_credits: number;
    max_duration_seconds: number;
    export?: ExportPriceV1;
  };
  // What a COMPLETED job's result holds (docs/spec/video-jobs-resources.md): one `video`, or a list of `files`.
  readonly result: 'video' | 'files';
  // What a COMPLETED job keeps beside its result for exports (decision 0093) and what it measures of
  // its work (decision 0096), if anything: the worker stores no other kind for it.
  readonly keeps?: StoredExportSourceV1['kind'];
  readonly measures?: StoredQualityV1['kind'];
}

// A definition checked against its options: defaults complete, only boolean options priced.
export function defineJobType<T extends string, O extends object>(
  definition: JobTypeDefinition<T> & { defaults: O; booleanOptions: readonly BooleanOptionOf<O>[]; price: { option_multipliers: Partial<Record<BooleanOptionOf<O>, number>> } },
): JobTypeDefinition<T> & { readonly defaults: O } {
  return definition;
}
