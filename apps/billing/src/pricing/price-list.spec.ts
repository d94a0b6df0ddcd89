import { BACKGROUND_REMOVAL_DEFAULTS, CLEAN_AUDIO_DEFAULTS, priceOf, quoteJob } from '@vj/contracts';
import { DEFAULT_PRICES, parsePrices, PriceListError } from './price-list';

const removal = DEFAULT_PRICES['video-background-removal'];
const clean = DEFAULT_PRICES['clean-audio-video'];

describe('priceOf', () => {
  it('charges per started second', () => {
    expect(priceOf(clean, CLEAN_AUDIO_DEFAULTS, 10)).toEqual({ credits: 10, billed_seconds: 10 });
    expect(priceOf(clean, CLEAN_AUDIO_DEFAULTS, 10.001)).toEqual({ credits: 11, billed_seconds: 11 });
    expect(priceOf(clean, CLEAN_AUDIO_DEFAULTS, 59.5)).toEqual({ credits: 60, billed_seconds: 60 });
  });

  it('ignores float noise below a millisecond', () => {
    expect(priceOf(clean, CLEAN_AUDIO_DEFAULTS, 10.0000001)).toEqual({ credits: 10, billed_seconds: 10 });
  });

  it('applies the multiplier of an option only when it is on, rounding up to a whole credit', () => {
    const on = { ...BACKGROUND_REMOVAL_DEFAULTS, refine_foreground_edges: true };
    const off = { ...BACKGROUND_REMOVAL_DEFAULTS, refine_foreground_edges: false };
    expect(priceOf(removal, off, 7)).toEqual({ credits: 14, billed_seconds: 7 });
    expect(priceOf(removal, on, 7)).toEqual({ credits: 21, billed_seconds: 7 });
    expect(priceOf(removal, on, 7.2)).toEqual({ credits: 24, billed_seconds: 8 });
    expect(priceOf({ ...removal, credits_per_second: 0.3 }, on, 3)).toEqual({ credits: 10, billed_seconds: 3 });
    expect(priceOf({ ...removal, credits_per_second: 0.1, minimum_credits: 0 }, off, 3)).toEqual({ credits: 1, billed_seconds: 3 });
  });

  it('never charges less than the minimum', () => {
    expect(priceOf(clean, CLEAN_AUDIO_DEFAULTS, 0)).toEqual({ credits: 5, billed_seconds: 0 });
    expect(priceOf(removal, BACKGROUND_REMOVAL_DEFAULTS, 1)).toEqual({ credits: 10, billed_seconds: 1 });
  });

  it('multiplies several options together', () => {
    const price = { ...removal, option_multipliers: { refine_foreground_edges: 1.5, subject_is_person: 1.1 } };
    expect(priceOf(price, { ...BACKGROUND_REMOVAL_DEFAULTS, refine_foreground_edges: true, subject_is_person: true }, 10)).toEqual({ credits: 33, billed_seconds: 10 });
  });

  it('prices an export by its own line, without multipliers, and by the job type line where there is none', () => {
    const exported = { ...CLEAN_AUDIO_DEFAULTS, export_of: '5d2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40' };
    expect(priceOf(clean, exported, 59.5)).toEqual({ credits: 6, billed_seconds: 60 });
    expect(priceOf(clean, exported, 3)).toEqual({ credits: 1, billed_seconds: 3 });
    expect(priceOf(removal, { ...BACKGROUND_REMOVAL_DEFAULTS, refine_foreground_edges: true, export_of: 'x' }, 10)).toEqual({ credits: 5, billed_seconds: 10 });
    const { export: _line, ...withoutExport } = removal;
    expect(priceOf(withoutExport, { ...BACKGROUND_REMOVAL_DEFAULTS, refine_foreground_edges: true, export_of: 'x' }, 10)).toEqual({ credits: 30, billed_seconds: 10 });
  });
});

describe('quoteJob', () => {
  const list = { version: 4, prices: DEFAULT_PRICES };

  it('prices the probed duration with the list it names', () => {
    expect(quoteJob(list, 'clean-audio-video', CLEAN_AUDIO_DEFAULTS, 9.2)).toEqual({ credits_estimated: 10, duration_seconds: 9.2, basis: 'probed_duration', price_version: 4 });
  });

  it("prices the job type's maximum when the duration is unknown", () => {
    expect(quoteJob(list, 'video-background-removal', BACKGROUND_REMOVAL_DEFAULTS, null)).toEqual({
      credits_estimated: 1800,
      duration_seconds: 600,
      basis: 'max_duration',
      price_version: 4,
    });
  });
});

describe('parsePrices', () => {
  it('accepts the defaults', () => {
    expect(parsePrices(JSON.parse(JSON.stringify(DEFAULT_PRICES)))).toEqual(DEFAULT_PRICES);
  });

  it('names every problem', () => {
    const bad = {
      'video-background-removal': { credits_per_second: 0.0001, option_multipliers: { output_codec: 2 }, minimum_credits: -1, max_duration_seconds: 0 },
      'clean-audio-video': { credits_per_second: 1, option_multipliers: {}, minimum_credits: 5, max_duration_seconds: 60, extra: 1 },
      other: {},
    };
    expect(() => parsePrices(bad)).toThrow(PriceListError);
    expect(() => parsePrices(bad)).toThrow(
      /unknown job type "other".*credits_per_second.*minimum_credits.*max_duration_seconds.*"output_codec" is not a boolean option.*unknown field "extra"/,
    );
  });

  it('checks an export line', () => {
    const withExport = (line: unknown) => ({ ...DEFAULT_PRICES, 'clean-audio-video': { ...DEFAULT_PRICES['clean-audio-video'], export: line } });
    expect(() => parsePrices(withExport({ credits_per_second: -1, minimum_credits: 0.5, max: 1 }))).toThrow(
      /clean-audio-video.export: unknown field "max".*export.credits_per_second.*export.minimum_credits/,
    );
    expect(() => parsePrices(withExport('cheap'))).toThrow(/clean-audio-video.export: an object/);
    const { export: _omitted, ...withoutExport } = DEFAULT_PRICES['clean-audio-video'];
    expect(parsePrices({ ...DEFAULT_PRICES, 'clean-audio-video': withoutExport })['clean-audio-video']).toEqual(withoutExport);
  });

  it('refuses a missing job type', () => {
    expect(() => parsePrices({ 'clean-audio-video': DEFAULT_PRICES['clean-audio-video'] })).toThrow(/video-background-removal: missing/);
  });
});
