import request from 'supertest';
import { createGatewayApp } from '../app/create-gateway-app';
import { fakeMessaging } from '../../test/fake-messaging';
import { bearer, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';
import { Client } from 'pg';
import { AccountsRepository, type CreatedAccount } from '../identity';
import { RateLimitBuckets } from './rate-limit-buckets';

const VIDEO = 'https://example.com/video.mp4';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rate limits: token buckets per API key, shared by every gateway instance', () => {
  let gw: GatewayHarness;

  beforeAll(async () => {
    gw = await startGateway('gateway_rate_limits', {
      RATE_LIMIT_READ_BURST: '5',
      RATE_LIMIT_READS_PER_SECOND: '2',
      RATE_LIMIT_WRITE_BURST: '3',
      RATE_LIMIT_WRITES_PER_SECOND: '1',
      RATE_LIMIT_UNAUTHENTICATED_BURST: '4',
      RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: '1',
      ACCOUNT_MAX_PROCESSING_JOBS: '2',
    });
  });

  afterAll(() => gw.stop());

  // A slow refill (one token every 100 s) keeps the counts exact however slow the machine is.
  const slowAccount = async (name: string) => {
    const account = await gw.newAccount(name);
    await gw.app.get(AccountsRepository).setLimits(account.account_id, { reads_per_second: 0.01, writes_per_second: 0.01 });
    return account;
  };
  const list = (account: CreatedAccount, server = gw.server) => request(server).get('/v1/jobs').set(bearer(account));
  const create = (account: CreatedAccount) => request(gw.server).post('/v1/clean-audio-video').set(bearer(account)).send({ video_url: VIDEO });

  it('answers a burst over the bucket with 429 rate_limited, Retry-After and the RateLimit headers', async () => {
    const alice = await slowAccount('alice');
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await list(alice));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers.map((res) => res.headers['ratelimit-limit'])).toEqual(Array(7).fill('5'));
    expect(answers.slice(0, 5).map((res) => res.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0']);
    const refused = answers[5];
    expectSchema('RequestError', refused.body);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(99);
    expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(499);
  });

  it('lets a request through once Retry-After has passed', async () => {
    const hasty = await gw.newAccount('hasty');
    await gw.app.get(AccountsRepository).setLimits(hasty.account_id, { read_burst: 1, reads_per_second: 1 });
    let refused;
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await list(hasty);
      if (res.status === 429) refused = res;
    }
    expect(refused?.headers['retry-after']).toBe('1');
    await sleep(1000);
    expect((await list(hasty)).status).toBe(200);
  });

  it('takes a token for a malformed or oversized body too, and answers it with the RateLimit headers', async () => {
    const dora = await slowAccount('dora');
    const malformed = await request(gw.server).post('/v1/uploads').set(bearer(dora)).set('Content-Type', 'application/json').send('{"file_name":');
    expect(malformed.status).toBe(400);
    expect(malformed.headers['ratelimit-remaining']).toBe('2');
    const oversized = await request(gw.server).post('/v1/uploads').set(bearer(dora)).set('Content-Type', 'application/json').send(`{"file_name":"${'x'.repeat(70_000)}"}`);
    expect(oversized.status).toBe(413);
    expect(oversized.headers['ratelimit-remaining']).toBe('1');
  });

  it('keeps reads and writes in separate buckets, and each key in its own', async () => {
    const bob = await slowAccount('bob');
    const carol = await gw.newAccount('carol');
    for (let i = 0; i < 5; i++) await list(bob);
    expect((await list(bob)).status).toBe(429);
    const estimate = await request(gw.server).post('/v1/estimates?type=clean-audio-video').set(bearer(bob)).send({ video_url: VIDEO });
    expect(estimate.status).toBe(200);
    expect(estimate.headers['ratelimit-limit']).toBe('3');
    expect(estimate.headers['ratelimit-remaining']).toBe('2');
    expect((await list(carol)).status).toBe(200);
  });

  it('counts requests the body validation refuses: a hostile client cannot spend work for free', async () => {
    const dave = await slowAccount('dave');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(gw.server).post('/v1/uploads').set(bearer(dave)).send({ nonsense: true })).status);
    expect(statuses).toEqual([422, 422, 422, 429]);
  });

  it('shares the buckets between gateway instances on the same database', async () => {
    const erin = await slowAccount('erin');
    const second = await createGatewayApp(gw.config, { messaging: fakeMessaging() });
    try {
      for (let i = 0; i < 3; i++) expect((await list(erin)).status).toBe(200);
      const other = second.getHttpServer();
      expect((await list(erin, other)).status).toBe(200);
      expect((await list(erin, other)).status).toBe(200);
      const refused = await list(erin, other);
      expect(refused.status).toBe(429);
      expect((await list(erin)).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it("applies an account's own limits over the defaults", async () => {
    const frank = await gw.newAccount('frank');
    await gw.app.get(AccountsRepository).setLimits(frank.account_id, { read_burst: 8, reads_per_second: 0.01 });
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await list(frank)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect(statuses[8]).toBe(429);
  });

  it("answers a create past the account's cap on PROCESSING jobs with 429 and Retry-After, not a failed job", async () => {
    const grace = await gw.newAccount('grace');
    expect((await create(grace)).status).toBe(202);
    expect((await create(grace)).status).toBe(202);
    const refused = await create(grace);
    expect(refused.status).toBe(429);
    expectSchema('RequestError', refused.body);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe('5');
    expect(gw.jobs.creates.at(-1)?.max_processing_jobs).toBe(2);
  });

  it('drops a bucket only once it is full again, however slow its refill', async () => {
    const buckets = gw.app.get(RateLimitBuckets);
    const policy = (refillPerSecond: number) => ({ capacity: 10, refillPerSecond });
    await buckets.take('test:fast', policy(10));
    await buckets.take('test:slow', policy(0.0001));
    await buckets.deleteFull(new Date(Date.now() + 60_000));
    const db = new Client({ connectionString: gw.config.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ bucket_key: string }>(`SELECT bucket_key FROM identity.rate_limit_buckets WHERE bucket_key LIKE 'test:%'`);
      expect(rows.map((row) => row.bucket_key)).toEqual(['test:slow']);
    } finally {
      await db.end();
    }
  });

  // Last: the whole file's requests come from this one address.
  it('limits requests without a valid key per client address: 401 until the bucket is empty, then 429 before any key is looked up', async () => {
    const statuses = [];
    for (let i = 0; i < 30 && statuses.at(-1) !== 429; i++) statuses.push((await request(gw.server).get('/v1/jobs').set({ Authorization: 'Bearer nope' })).status);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    // A right key from the blocked address is refused too: the answer tells a guesser nothing.
    const valid = await gw.newAccount('valid');
    const blocked = await list(valid);
    expect(blocked.status).toBe(429);
    await sleep(Number(blocked.headers['retry-after']) * 1000 + 100);
    expect((await list(valid)).status).toBe(200);
    const res = await request(gw.server).get('/v1/jobs').set({ Authorization: 'Bearer nope' });
    expect(res.status).toBe(401);
    expect(res.headers['ratelimit-limit']).toBe('4');
  });
});
