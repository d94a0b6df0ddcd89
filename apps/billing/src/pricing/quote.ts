import type { CreditEstimateV1, JobOptionsByType, JobType } from '@vj/contracts';
import { priceOf } from './price';
import type { PriceList } from './price-list';

// The estimate of a job: the price of its probed duration, or of the job type's maximum duration when
// the probe could not tell (the most the job can cost, so the hold always covers it).
export function quote<T extends JobType>(list: PriceList, jobType: T, options: JobOptionsByType[T], durationSeconds: number | null): CreditEstimateV1 {
  const price = list.prices[jobType];
  const duration = durationSeconds ?? price.max_duration_seconds;
  return {
    credits_estimated: priceOf(price, options, duration).credits,
    duration_seconds: duration,
    basis: durationSeconds === null ? 'max_duration' : 'probed_duration',
    price_version: list.version,
  };
}
