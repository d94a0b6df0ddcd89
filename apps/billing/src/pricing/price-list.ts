import { JOB_TYPES, jobTypeDefinition, type JobType, type JobTypePriceV1, type JobTypePricesV1, type PriceListV1 } from '@vj/contracts';

// Billing's names for the contracts' price types (libs/contracts pricing): billing owns the lists.
export type JobTypePrice = JobTypePriceV1;
export type JobTypePrices = JobTypePricesV1;
export type PriceList = PriceListV1;

// The built-in prices (README "Prices"): each job type's own line (libs/contracts job-types);
// BILLING_PRICES_FILE replaces them.
export const DEFAULT_PRICES = Object.fromEntries(JOB_TYPES.map((type) => [type, jobTypeDefinition(type).price])) as JobTypePrices;

export class PriceListError extends Error {}

// Validates a price list read from configuration; every problem is named.
export function parsePrices(value: unknown): JobTypePrices {
  const problems: string[] = [];
  if (!isObject(value)) throw new PriceListError('prices must be an object with one entry per job type');
  for (const key of Object.keys(value)) if (!(JOB_TYPES as readonly string[]).includes(key)) problems.push(`unknown job type "${key}"`);
  for (const type of JOB_TYPES) {
    const price = value[type];
    if (!isObject(price)) {
      problems.push(`${type}: missing`);
      continue;
    }
    const allowed = ['credits_per_second', 'option_multipliers', 'minimum_credits', 'max_duration_seconds', 'export'];
    for (const key of Object.keys(price)) if (!allowed.includes(key)) problems.push(`${type}: unknown field "${key}"`);
    if (!isThousandths(price.credits_per_second, 0)) problems.push(`${type}.credits_per_second: a number >= 0 with at most 3 decimals`);
    if (!Number.isInteger(price.minimum_credits) || (price.minimum_credits as number) < 0) problems.push(`${type}.minimum_credits: an integer >= 0`);
    if (!Number.isInteger(price.max_duration_seconds) || (price.max_duration_seconds as number) < 1) problems.push(`${type}.max_duration_seconds: an integer >= 1`);
    if (price.export !== undefined) problems.push(...exportPriceProblems(type, price.export));
    const multipliers = price.option_multipliers;
    if (!isObject(multipliers)) {
      problems.push(`${type}.option_multipliers: an object (may be empty)`);
      continue;
    }
    for (const [option, multiplier] of Object.entries(multipliers)) {
      if (!jobTypeDefinition(type).booleanOptions.includes(option)) problems.push(`${type}.option_multipliers: "${option}" is not a boolean option of ${type}`);
      else if (!isThousandths(multiplier, 0.001)) problems.push(`${type}.option_multipliers.${option}: a number > 0 with at most 3 decimals`);
    }
  }
  if (problems.length) throw new PriceListError(`invalid price list: ${problems.join('; ')}`);
  return value as unknown as JobTypePrices;
}

// An export's line (decision 0093): optional; without it an export costs what the job type does.
function exportPriceProblems(type: JobType, line: unknown): string[] {
  if (!isObject(line)) return [`${type}.export: an object with credits_per_second and minimum_credits`];
  const problems = Object.keys(line).filter((key) => key !== 'credits_per_second' && key !== 'minimum_credits').map((key) => `${type}.export: unknown field "${key}"`);
  if (!isThousandths(line.credits_per_second, 0)) problems.push(`${type}.export.credits_per_second: a number >= 0 with at most 3 decimals`);
  if (!Number.isInteger(line.minimum_credits) || (line.minimum_credits as number) < 0) problems.push(`${type}.export.minimum_credits: an integer >= 0`);
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isThousandths(value: unknown, min: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= 1e6 && Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
}
