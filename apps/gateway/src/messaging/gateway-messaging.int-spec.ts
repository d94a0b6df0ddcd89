import { Logger } from '@nestjs/common';
import type { CreditEstimateV1, JobInputV1 } from '@vj/contracts';
import { startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { RpcError, serveBillingRpc, serveMediaRpc, type BillingRpcHandlers, type RpcService } from '@vj/messaging';
import { connect, type NatsConnection } from 'nats';
import { BillingServiceError, CurrentPrices } from '../billing';
import { gatewayEnv } from '../gateway.env';
import { ProbedDurations, QuoteJobService, type VideoInputResolver } from '../jobs';
import type { UploadsRepository } from '../uploads';
import { connectGatewayMessaging, type GatewayMessaging } from './gateway-messaging';

const INPUT: JobInputV1 = { kind: 'url', url: 'https://media.example.com/clip.mp4' };
const PROBE_TIMEOUT_MS = 300;

const notServed = async (): Promise<never> => {
  throw new Error('not served in this test');
};

// The gateway's billing and probe adapters over a real nats-server, against tiny fake services.
describe('gateway messaging: billing and the media probe over NATS', () => {
  let nats: LocalNatsServer;
  let services: NatsConnection;
  let messaging: GatewayMessaging;
  let billing: RpcService;
  let media: RpcService;
  let probeDelayMs = 0;
  const PRICE = { credits_per_second: 2, option_multipliers: {}, minimum_credits: 0, max_duration_seconds: 60 };
  const pendingProbes: Promise<unknown>[] = [];

  const handlers: BillingRpcHandlers = {
    price_list: async () => ({ version: 1, prices: { 'clean-audio-video': PRICE, 'video-background-removal': PRICE } }),
    balance: async (request) => ({ account_id: request.account_id, balance: 5, held: 1, available: 4 }),
    usage: notServed,
    ledger: async () => {
      throw new RpcError('invalid_request', 'cursor is not valid');
    },
    grant: notServed,
    extend_hold: notServed,
  };

  beforeAll(async () => {
    Logger.overrideLogger(false);
    nats = await startNatsServer();
    services = await connect({ servers: nats.url });
    billing = serveBillingRpc(services, handlers);
    media = serveMediaRpc(services, {
      probe: async () => {
        const answered = new Promise((resolve) => setTimeout(resolve, probeDelayMs));
        pendingProbes.push(answered);
        await answered;
        return { duration_seconds: 7.5 };
      },
    });
    await services.flush();
    const config = gatewayEnv.parse({
      NATS_URL: nats.url,
      DATABASE_URL: 'postgres://unused@127.0.0.1/unused',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_ACCESS_KEY: 'unused',
      S3_SECRET_KEY: 'unused',
      RPC_TIMEOUT_MS: '2000',
      ESTIMATE_PROBE_TIMEOUT_MS: String(PROBE_TIMEOUT_MS),
    });
    messaging = await connectGatewayMessaging(config);
  });

  afterAll(async () => {
    await Promise.all(pendingProbes);
    await messaging?.close();
    await media?.close();
    await billing?.close();
    await services?.drain();
    await nats?.stop();
  });

  it('calls billing and returns its reply', async () => {
    expect(await messaging.billing.balance({ version: 1, account_id: 'a1' })).toEqual({ account_id: 'a1', balance: 5, held: 1, available: 4 });
  });

  it("turns billing's refusals into BillingServiceError with the same code", async () => {
    const failure = messaging.billing.ledger({ version: 1, account_id: 'a1', limit: 20, cursor: 'bad' });
    await expect(failure).rejects.toBeInstanceOf(BillingServiceError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid_request', message: 'cursor is not valid' });
  });

  it('probes the duration within ESTIMATE_PROBE_TIMEOUT_MS', async () => {
    probeDelayMs = 0;
    expect(await messaging.mediaProbe.probe({ version: 1, input: INPUT })).toEqual({ duration_seconds: 7.5 });
  });

  it('gives up on a probe after ESTIMATE_PROBE_TIMEOUT_MS, well before RPC_TIMEOUT_MS', async () => {
    probeDelayMs = PROBE_TIMEOUT_MS * 3;
    const started = Date.now();
    await expect(messaging.mediaProbe.probe({ version: 1, input: INPUT })).rejects.toMatchObject({ code: 'unavailable' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(PROBE_TIMEOUT_MS * 3);
  });

  it('quotes the maximum duration, through real NATS, when the probe times out twice', async () => {
    probeDelayMs = PROBE_TIMEOUT_MS * 3;
    const inputs = { resolve: async () => ({ input: INPUT }) } as unknown as VideoInputResolver;
    const quotes = new QuoteJobService(inputs, messaging.mediaProbe, new CurrentPrices(messaging.billing, 10_000), new ProbedDurations(60_000), {} as UploadsRepository);
    const options = { output_codec: 'vp9' as const, refine_foreground_edges: true, subject_is_person: true };
    const { estimate } = await quotes.quote({ accountId: 'a1', jobType: 'video-background-removal', videoUrl: INPUT.url, options });
    const expected: CreditEstimateV1 = { credits_estimated: 120, duration_seconds: 60, basis: 'max_duration_timed_out', price_version: 1 };
    expect(estimate).toEqual(expected);
  });

  it('answers unavailable when billing does not answer', async () => {
    await billing.close();
    await services.flush();
    await expect(messaging.billing.balance({ version: 1, account_id: 'a1' })).rejects.toMatchObject({ code: 'unavailable' });
  });
});
