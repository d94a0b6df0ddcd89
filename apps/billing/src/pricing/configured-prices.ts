import { readFile } from 'node:fs/promises';
import { DEFAULT_PRICES, parsePrices, PriceListError, type JobTypePrices } from './price-list';

// The prices this instance is configured with: BILLING_PRICES_FILE, or the built-in ones.
export async function configuredPrices(file: string | undefined): Promise<JobTypePrices> {
  if (!file) return DEFAULT_PRICES;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new PriceListError(`BILLING_PRICES_FILE ${file}: ${(error as Error).message}`);
  }
  try {
    return parsePrices(JSON.parse(text));
  } catch (error) {
    throw new PriceListError(`BILLING_PRICES_FILE ${file}: ${(error as Error).message}`);
  }
}
