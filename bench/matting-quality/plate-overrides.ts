import { DEFAULT_PLATE, type PlateSettings } from '../../apps/render-worker/src/matting/background-plate';

// `--plate '{"differWeight":7}'`: background-plate settings to try on the pipeline's way, over the
// defaults. Only the plate's own keys, each of the default's shape (a number, a boolean, a pair of
// numbers, or an object with all of the default's keys), so a typo fails the run instead of scoring
// the defaults under another label.
export function plateOverrides(json: string): Partial<PlateSettings> {
  let given: unknown;
  try {
    given = JSON.parse(json);
  } catch {
    throw new Error(`--plate ${json}: not JSON`);
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new Error(`--plate ${json}: an object of plate settings`);
  for (const [key, value] of Object.entries(given)) {
    if (!Object.hasOwn(DEFAULT_PLATE, key)) throw new Error(`--plate: ${key} is not a plate setting (${Object.keys(DEFAULT_PLATE).join(', ')})`);
    const fallback: unknown = DEFAULT_PLATE[key as keyof PlateSettings];
    if (!sameShape(fallback, value)) throw new Error(`--plate: ${key} must be like ${JSON.stringify(fallback)}`);
  }
  return given as Partial<PlateSettings>;
}

function sameShape(fallback: unknown, value: unknown): boolean {
  if (Array.isArray(fallback)) return Array.isArray(value) && value.length === fallback.length && value.every((item) => Number.isFinite(item));
  if (typeof fallback === 'number') return Number.isFinite(value);
  if (typeof fallback === 'object' && fallback !== null) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const keys = Object.keys(fallback);
    const given = value as Record<string, unknown>;
    return Object.keys(given).length === keys.length && keys.every((key) => Object.hasOwn(given, key) && sameShape((fallback as Record<string, unknown>)[key], given[key]));
  }
  return typeof value === typeof fallback;
}
