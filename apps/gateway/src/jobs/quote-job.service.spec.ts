import { Logger } from '@nestjs/common';
import type { JobInputV1, PriceListV1, ProbeInputReplyV1, ProbeInputRequestV1 } from '@vj/contracts';
import { BillingServiceError, CurrentPrices, type BillingPort } from '../billing';
import type { MediaProbePort } from './media-probe-port';
import { ProbedDurations } from './probed-durations';
import { QuoteJobService } from './quote-job.service';
import type { UploadsRepository } from '../uploads';
import type { VideoInputResolver } from './video-input.resolver';

const INPUT: JobInputV1 = { kind: 'url', url: 'https://media.example.com/clip.mp4' };
const OPTIONS = { strength: 0.5, normalize_loudness: true, target_lufs: -19 };
const REQUEST = { accountId: 'acc-1', jobType: 'clean-audio-video' as const, videoUrl: INPUT.url, options: OPTIONS };
const PRICES: PriceListV1 = {
  version: 2,
  prices: {
    'clean-audio-video': { credits_per_second: 2, option_multipliers: {}, minimum_credits: 1, max_duration_seconds: 60 },
    'video-background-removal': { credits_per_second: 3, option_multipliers: {}, minimum_credits: 1, max_duration_seconds: 30 },
  },
};

function service(probe: (request: ProbeInputRequestV1) => Promise<ProbeInputReplyV1>, priceList?: BillingPort['priceList']) {
  const billing = { priceList: priceList ?? (async () => PRICES) } as unknown as BillingPort;
  const inputs = { resolve: async () => ({ input: INPUT }) } as unknown as VideoInputResolver;
  const media: MediaProbePort = { probe };
  const uploads = { recordDuration: async () => undefined } as unknown as UploadsRepository;
  return new QuoteJobService(inputs, media, new CurrentPrices(billing, 0), new ProbedDurations(60_000), uploads);
}

describe('QuoteJobService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("prices the probed duration with billing's current list and returns the resolved input with the quote", async () => {
    const probed: ProbeInputRequestV1[] = [];
    const quotes = service(async (request) => (probed.push(request), { duration_seconds: 4.5 }));
    const estimate = { credits_estimated: 10, duration_seconds: 4.5, basis: 'probed_duration', price_version: 2 };
    expect(await quotes.quote(REQUEST)).toEqual({ input: INPUT, estimate, probedNow: true });
    expect(probed).toEqual([{ version: 1, input: INPUT }]);
  });

  it("quotes the job type's maximum at once when the input states no duration that can be read", async () => {
    let calls = 0;
    const { estimate } = await service(async () => (calls++, { duration_seconds: null })).quote(REQUEST);
    expect(estimate).toEqual({ credits_estimated: 120, duration_seconds: 60, basis: 'max_duration', price_version: 2 });
    expect(calls).toBe(1);
  });

  it.each([
    ['gets no answer in time', async () => Promise.reject(new Error('media.probe: TIMEOUT'))],
    ["passes the worker's own time limit", async () => ({ duration_seconds: null, timed_out: true })],
  ])("tries once more when the probe %s, and says so when the maximum is quoted", async (_name, probe) => {
    let calls = 0;
    const { estimate } = await service(() => (calls++, probe())).quote(REQUEST);
    expect(estimate).toEqual({ credits_estimated: 120, duration_seconds: 60, basis: 'max_duration_timed_out', price_version: 2 });
    expect(calls).toBe(2);
  });

  it('prices the duration a second try finds after the first timed out', async () => {
    const replies: ProbeInputReplyV1[] = [{ duration_seconds: null, timed_out: true }, { duration_seconds: 4.5 }];
    const { estimate } = await service(async () => replies.shift() as ProbeInputReplyV1).quote(REQUEST);
    expect(estimate).toEqual({ credits_estimated: 10, duration_seconds: 4.5, basis: 'probed_duration', price_version: 2 });
  });

  it('lets billing being unreachable fail the quote', async () => {
    const quotes = service(
      async () => ({ duration_seconds: 1 }),
      async () => Promise.reject(new BillingServiceError('unavailable', 'no responders')),
    );
    await expect(quotes.quote(REQUEST)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
