import type { CreditEstimateV1, EstimateBasis } from '../messaging/billing-payloads';
import type { JobOptionsByType } from '../job/job-options';
import { exportOf } from '../job/job-options';
import type { JobType } from '../job/job-type';
import type { BooleanOptionOf } from '../job-types/job-type-definition';

// Billing's prices and the arithmetic on them. Billing owns the price lists (versioned, immutable once
// stored) and charges with them; the gateway quotes creates and estimates from a cached copy of the
// current list (vj.rpc.billing.v1.price_list, decision 0037). Both sides run this same code, so a
// quote and a charge of the same duration agree to the credit.

// What one job type costs. Rates and multipliers have at most 3 decimals so prices are exact integers
// of thousandths (no float drift between a quote and a charge).
export interface JobTypePriceV1 {
  // Credits per started second of input video.
  credits_per_second: number;
  // Applied (multiplied together) when the boolean option of that name is true on the job.
  option_multipliers: Partial<Record<BooleanOption, number>>;
  // No job costs less than this, however short.
  minimum_credits: number;
  // What an estimate assumes when the input's duration cannot be known in time: the job type's limit.
  max_duration_seconds: number;
  // What an export of a COMPLETED job of this type costs (decision 0093): a remix or an encode, without
  // the model. Absent: an export costs what a job of this type does.
  export?: ExportPriceV1;
}

export interface ExportPriceV1 {
  credits_per_second: number;
  minimum_credits: number;
}

export type BooleanOption = { [T in JobType]: BooleanOptionOf<JobOptionsByType[T]> }[JobType] & string;

export type JobTypePricesV1 = Record<JobType, JobTypePriceV1>;

export interface PriceListV1 {
  version: number;
  prices: JobTypePricesV1;
}

export interface PriceListRequestV1 {
  version: 1;
}

export interface Price {
  credits: number;
  billed_seconds: number;
}

// Credits for a job of this duration (README "Prices"):
//   billed_seconds = started seconds (the duration rounded to the millisecond, then up to the second)
//   credits = billed_seconds x credits_per_second x the multipliers of the options that are on,
//             rounded up to a whole credit, and never below minimum_credits.
// Integer thousandths keep it exact: 3 x 0.1 credits is 0.3, not 0.30000000000000004.
// options: the job's options after defaults; only boolean options named in option_multipliers count.
// An export (options.export_of) is priced by the export line where there is one, without multipliers.
export function priceOf(price: JobTypePriceV1, options: object, durationSeconds: number): Price {
  if (exportOf(options) !== undefined && price.export) return priceOf({ ...price.export, option_multipliers: {}, max_duration_seconds: price.max_duration_seconds }, {}, durationSeconds);
  const billed_seconds = Math.ceil(Math.round(Math.max(0, durationSeconds) * 1000) / 1000);
  let milli = BigInt(billed_seconds) * BigInt(Math.round(price.credits_per_second * 1000));
  let scale = 1000n;
  for (const [option, multiplier] of Object.entries(price.option_multipliers)) {
    if ((options as Record<string, unknown>)[option] !== true || multiplier === undefined) continue;
    milli *= BigInt(Math.round(multiplier * 1000));
    scale *= 1000n;
  }
  const credits = Number((milli + scale - 1n) / scale);
  return { credits: Math.max(credits, price.minimum_credits), billed_seconds };
}

// The estimate of a job: the price of its probed duration, or of the job type's maximum duration when
// the probe could not tell (the most the job can cost, so the hold always covers it); `unknownBasis`
// says why it could not.
export function quoteJob<T extends JobType>(
  list: PriceListV1,
  jobType: T,
  options: JobOptionsByType[T],
  durationSeconds: number | null,
  unknownBasis: Exclude<EstimateBasis, 'probed_duration'> = 'max_duration',
): CreditEstimateV1 {
  const price = list.prices[jobType];
  const duration = durationSeconds ?? price.max_duration_seconds;
  return {
    credits_estimated: priceOf(price, options, duration).credits,
    duration_seconds: duration,
    basis: durationSeconds === null ? unknownBasis : 'probed_duration',
    price_version: list.version,
  };
}
