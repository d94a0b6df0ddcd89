import { Logger } from '@nestjs/common';
import type { CreditEstimateV1, EstimateRequestV1, JobInputV1, ProbeInputRequestV1 } from '@vj/contracts';
import { BillingServiceError, type BillingPort } from '../billing/billing-port';
import type { MediaProbePort } from './media-probe-port';
import { ProbedDurations } from './probed-durations';
import { QuoteJobService } from './quote-job.service';
import type { UploadsRepository } from '../uploads/uploads.repository';
import type { VideoInputResolver } from './video-input.resolver';

const INPUT: JobInputV1 = { kind: 'url', url: 'https://media.example.com/clip.mp4' };
const OPTIONS = { strength: 0.5, normalize_loudness: true, target_lufs: -19 };
const REQUEST = { accountId: 'acc-1', jobType: 'clean-audio-video' as const, videoUrl: INPUT.url, options: OPTIONS };

function service(probe: (request: ProbeInputRequestV1) => Promise<{ duration_seconds: number | null }>, estimate?: BillingPort['estimate']) {
  const estimates: EstimateRequestV1[] = [];
  const quote: CreditEstimateV1 = { credits_estimated: 9, duration_seconds: 4.5, basis: 'probed_duration', price_version: 2 };
  const billing = {
    estimate: estimate ?? (async (request: EstimateRequestV1) => (estimates.push(request), quote)),
  } as BillingPort;
  const inputs = { resolve: async () => ({ input: INPUT }) } as unknown as VideoInputResolver;
  const media: MediaProbePort = { probe };
  const uploads = { recordDuration: async () => undefined } as unknown as UploadsRepository;
  return { quotes: new QuoteJobService(inputs, media, billing, new ProbedDurations(60_000), uploads), estimates, quote };
}

describe('QuoteJobService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('asks billing for the price of the probed duration and returns the resolved input with the quote', async () => {
    const probed: ProbeInputRequestV1[] = [];
    const { quotes, estimates, quote } = service(async (request) => (probed.push(request), { duration_seconds: 4.5 }));
    expect(await quotes.quote(REQUEST)).toEqual({ input: INPUT, estimate: quote, probedNow: true });
    expect(probed).toEqual([{ version: 1, input: INPUT }]);
    expect(estimates).toEqual([{ version: 1, account_id: 'acc-1', job_type: 'clean-audio-video', options: OPTIONS, duration_seconds: 4.5 }]);
  });

  it.each([
    ['fails', async () => Promise.reject(new Error('media.probe: TIMEOUT'))],
    ['cannot tell', async () => ({ duration_seconds: null })],
  ])('quotes an unknown duration (null) when the probe %s', async (_name, probe) => {
    const { quotes, estimates } = service(probe);
    await quotes.quote(REQUEST);
    expect(estimates[0].duration_seconds).toBeNull();
  });

  it('lets billing being unreachable fail the quote', async () => {
    const { quotes } = service(
      async () => ({ duration_seconds: 1 }),
      async () => Promise.reject(new BillingServiceError('unavailable', 'no responders')),
    );
    await expect(quotes.quote(REQUEST)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
