import type { JobTypePrice } from './price-list';

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
export function priceOf(price: JobTypePrice, options: object, durationSeconds: number): Price {
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
