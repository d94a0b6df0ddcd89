import type { CreditEstimateV1 } from '@vj/contracts';
import type { Job } from './job';

type EstimateColumns = Pick<Job, 'credits_estimated' | 'estimate'>;

// The quote is stored in two columns: its credits in credits_estimated (shown on the job object), the
// rest in estimate. Fields are picked one by one so nothing unknown from the wire is stored.
export function estimateColumns(estimate: CreditEstimateV1 | undefined): EstimateColumns {
  if (!estimate) return { credits_estimated: null, estimate: null };
  const { credits_estimated, duration_seconds, basis, price_version } = estimate;
  return { credits_estimated, estimate: { duration_seconds, basis, price_version } };
}

// Undefined for a job created without a quote (before billing existed).
export function jobEstimate(job: EstimateColumns): CreditEstimateV1 | undefined {
  if (!job.estimate || job.credits_estimated === null) return undefined;
  return { credits_estimated: job.credits_estimated, ...job.estimate };
}
