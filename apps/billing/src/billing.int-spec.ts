import {
  BACKGROUND_REMOVAL_DEFAULTS,
  CLEAN_AUDIO_DEFAULTS,
  quoteJob,
  STREAMS,
  subjects,
  type BillingEventKind,
  type BillingEventPayloads,
  type CreditEstimateV1,
  type JobEventKind,
  type JobEventPayloads,
  type JobType,
  type LedgerEntryV1,
} from '@vj/contracts';
import { createDatabase, startNatsServer, waitFor, type LocalNatsServer } from '@vj/local-stack';
import { BillingRpcClient, decodeJson, JetStreamPublisher, pingHealth } from '@vj/messaging';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection, type Subscription } from 'nats';
import { Client } from 'pg';
import { billingEnv } from './billing.env';
import { bootBilling, type RunningBilling } from './boot';
import { DEFAULT_PRICES } from './pricing/price-list';

type SeenEvent = { [K in BillingEventKind]: { kind: K; payload: BillingEventPayloads[K] } }[BillingEventKind];

describe('billing against PostgreSQL and nats-server', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;
  let databaseUrl: string;
  let db: Client;
  let billing: RunningBilling;
  let rpc: BillingRpcClient;
  let publisher: JetStreamPublisher;
  let subscription: Subscription;
  const seen: SeenEvent[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    databaseUrl = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'billing_app');
    billing = await bootBilling(billingEnv.parse({ NATS_URL: nats.url, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' }));
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    rpc = new BillingRpcClient(nc);
    publisher = new JetStreamPublisher(nc);
    subscription = nc.subscribe(subjects.billingEventAll(), {
      callback: (_error, msg) => seen.push({ kind: msg.subject.split('.').pop(), payload: decodeJson(msg.data) } as SeenEvent),
    });
  });

  afterAll(async () => {
    subscription?.unsubscribe();
    await billing?.stop();
    await db?.end();
    await nc?.close();
    await nats?.stop();
  });

  const newAccount = async (credits: number): Promise<string> => {
    const accountId = randomUUID();
    if (credits > 0) await rpc.call('grant', { version: 1, account_id: accountId, amount: credits, idempotency_key: randomUUID() });
    return accountId;
  };

  const estimate = (credits: number): CreditEstimateV1 => ({ credits_estimated: credits, duration_seconds: credits, basis: 'probed_duration', price_version: 1 });

  const base = (accountId: string, jobId: string, jobType: JobType = 'clean-audio-video') => ({
    version: 1 as const,
    event_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    job_id: jobId,
    account_id: accountId,
    job_type: jobType,
  });

  // msgId: a new one delivers the same event again (a redelivery, as the jobs relay republishing it).
  const send = async <K extends JobEventKind>(kind: K, event: JobEventPayloads[K], msgId = randomUUID()) => {
    await publisher.publish(subjects.jobEvent(kind), event, { msgId });
  };

  const created = (accountId: string, jobId: string, credits: number) =>
    send('created', { ...base(accountId, jobId), options: CLEAN_AUDIO_DEFAULTS, estimate: estimate(credits) });
  const completed = (accountId: string, jobId: string, seconds: number) =>
    send('completed', {
      ...base(accountId, jobId),
      result: { job_type: 'clean-audio-video', video: { object_key: 'results/x', content_type: 'video/mp4', file_name: 'x.mp4', file_size: 1 } },
      media_duration_seconds: seconds,
    });

  const eventsOf = (jobId: string) => seen.filter((e) => e.payload.job_id === jobId);
  const waitForEvent = async <K extends BillingEventKind>(jobId: string, kind: K): Promise<BillingEventPayloads[K]> => {
    await waitFor(`${kind} of ${jobId}`, async () => eventsOf(jobId).some((e) => e.kind === kind));
    return eventsOf(jobId).find((e) => e.kind === kind)!.payload as BillingEventPayloads[K];
  };
  const balance = (accountId: string) => rpc.call('balance', { version: 1, account_id: accountId });
  const allEntries = async (accountId: string): Promise<LedgerEntryV1[]> => {
    const entries: LedgerEntryV1[] = [];
    let cursor: string | undefined;
    do {
      const page = await rpc.call('ledger', { version: 1, account_id: accountId, limit: 7, ...(cursor && { cursor }) });
      entries.push(...page.entries);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return entries;
  };
  // Settles once the consumer has nothing pending or in flight.
  const drained = () =>
    waitFor('billing consumer drained', async () => {
      const info = await (await nc.jetstreamManager()).consumers.info(STREAMS.jobEvents, 'billing-job-events');
      return info.num_pending === 0 && info.num_ack_pending === 0;
    }, 30_000);

  it('answers the health probe as ready', async () => {
    expect(await pingHealth(nc, 'billing')).toEqual(expect.objectContaining({ service: 'billing', ready: true }));
  });

  it('serves its current price list, which quotes the probed duration or the job type maximum', async () => {
    const list = await rpc.call('price_list', { version: 1 });
    expect(list).toEqual({ version: 1, prices: DEFAULT_PRICES });
    expect(quoteJob(list, 'video-background-removal', BACKGROUND_REMOVAL_DEFAULTS, 9.2)).toEqual({ credits_estimated: 30, duration_seconds: 9.2, basis: 'probed_duration', price_version: 1 });
    expect(quoteJob(list, 'video-background-removal', BACKGROUND_REMOVAL_DEFAULTS, null)).toEqual({ credits_estimated: 1800, duration_seconds: 600, basis: 'max_duration', price_version: 1 });
  });

  describe('grants and balances', () => {
    it('grants once per idempotency key and reports balance, held and available', async () => {
      const accountId = randomUUID();
      const grant = { version: 1 as const, account_id: accountId, amount: 500, idempotency_key: 'k1' };
      expect(await rpc.call('grant', grant)).toEqual({ account_id: accountId, balance: 500 });
      expect(await rpc.call('grant', grant)).toEqual({ account_id: accountId, balance: 500 });
      expect(await rpc.call('grant', { ...grant, idempotency_key: 'k2', amount: 250 })).toEqual({ account_id: accountId, balance: 750 });
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 750, held: 0, available: 750 });
      await expect(rpc.call('grant', { ...grant, amount: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
    });

    it('answers zeros for an account billing has never seen', async () => {
      const accountId = randomUUID();
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 0, held: 0, available: 0 });
    });
  });

  describe('holds and charges', () => {
    it('holds the estimate when the job is created, and charges the processed duration on completion', async () => {
      const accountId = await newAccount(100);
      const jobId = randomUUID();
      await created(accountId, jobId, 20);
      expect(await waitForEvent(jobId, 'hold_placed')).toMatchObject({ job_id: jobId, account_id: accountId, credits_held: 20, price_version: 1 });
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 100, held: 20, available: 80 });

      await completed(accountId, jobId, 12.4);
      expect(await waitForEvent(jobId, 'charge_captured')).toMatchObject({ credits_charged: 13, credits_priced: 13, credits_released: 20, billed_seconds: 13 });
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 87, held: 0, available: 87 });
      expect((await allEntries(accountId)).map((e) => [e.kind, e.credits, e.balance_after, e.held_after])).toEqual([
        ['charge', 13, 87, 0],
        ['release', 20, 100, 0],
        ['hold', 20, 100, 20],
        ['grant', 100, 100, 0],
      ]);
    });

    it('charges once when the same completion is delivered three times', async () => {
      const accountId = await newAccount(100);
      const jobId = randomUUID();
      await created(accountId, jobId, 10);
      await waitForEvent(jobId, 'hold_placed');
      const event: JobEventPayloads['completed'] = {
        ...base(accountId, jobId),
        result: { job_type: 'clean-audio-video', video: { object_key: 'results/x', content_type: 'video/mp4', file_name: 'x.mp4', file_size: 1 } },
        media_duration_seconds: 8,
      };
      await Promise.all([send('completed', event), send('completed', event), send('completed', event)]);
      await drained();
      const charges = (await allEntries(accountId)).filter((e) => e.kind === 'charge');
      expect(charges.map((e) => e.credits)).toEqual([8]);
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 92, held: 0, available: 92 });
      const published = await (await nc.jetstreamManager()).streams.info(STREAMS.billingEvents, { subjects_filter: subjects.billingEvent('charge_captured') });
      expect(published.state.subjects?.[subjects.billingEvent('charge_captured')]).toBeGreaterThanOrEqual(1);
      expect(eventsOf(jobId).filter((e) => e.kind === 'charge_captured').map((e) => e.payload.event_id)).toEqual(
        expect.arrayContaining([expect.any(String)]),
      );
      expect(new Set(eventsOf(jobId).filter((e) => e.kind === 'charge_captured').map((e) => e.payload.event_id)).size).toBe(1);
    });

    it('charges no more than the hold and the available balance cover when the job ran longer than quoted', async () => {
      const accountId = await newAccount(30);
      const jobId = randomUUID();
      await created(accountId, jobId, 10);
      await waitForEvent(jobId, 'hold_placed');
      await completed(accountId, jobId, 45);
      expect(await waitForEvent(jobId, 'charge_captured')).toMatchObject({ credits_charged: 30, credits_priced: 45, billed_seconds: 45 });
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 0, held: 0, available: 0 });
    });

    it('charges the quote price version and the options of the created event', async () => {
      const accountId = await newAccount(1000);
      const jobId = randomUUID();
      const options = { ...BACKGROUND_REMOVAL_DEFAULTS, refine_foreground_edges: true };
      await send('created', { ...base(accountId, jobId, 'video-background-removal'), options, estimate: estimate(30) });
      await waitForEvent(jobId, 'hold_placed');
      await send('completed', {
        ...base(accountId, jobId, 'video-background-removal'),
        result: { job_type: 'video-background-removal', files: [] },
        media_duration_seconds: 10,
      });
      // 10 s x 2 credits x 1.5 for refine_foreground_edges.
      expect(await waitForEvent(jobId, 'charge_captured')).toMatchObject({ credits_charged: 30, price_version: 1 });
    });

    it.each(['failed', 'cancelled'] as const)('releases the hold and charges nothing when the job is %s', async (kind) => {
      const accountId = await newAccount(50);
      const jobId = randomUUID();
      await created(accountId, jobId, 40);
      await waitForEvent(jobId, 'hold_placed');
      const event = kind === 'failed' ? { ...base(accountId, jobId), error: { code: 'invalid_file' as const, message: 'bad', details: null } } : base(accountId, jobId);
      await send(kind, event);
      await send(kind, event);
      expect(await waitForEvent(jobId, 'hold_released')).toMatchObject({ credits_released: 40 });
      await drained();
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 50, held: 0, available: 50 });
      expect((await allEntries(accountId)).map((e) => e.kind)).toEqual(['release', 'hold', 'grant']);
    });

    it('rejects a job the available balance cannot cover and leaves the account unchanged', async () => {
      const accountId = await newAccount(9);
      const jobId = randomUUID();
      await created(accountId, jobId, 10);
      expect(await waitForEvent(jobId, 'hold_rejected')).toMatchObject({ credits_required: 10, credits_available: 9 });
      await send('failed', { ...base(accountId, jobId), error: { code: 'insufficient_credits', message: 'x', details: null } });
      await drained();
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 9, held: 0, available: 9 });
      expect((await allEntries(accountId)).map((e) => e.kind)).toEqual(['grant']);
      expect(eventsOf(jobId).map((e) => e.kind)).toEqual(['hold_rejected']);
    });

    it("rejects the first job of an account billing has never seen, making the account's row at zero", async () => {
      const accountId = randomUUID();
      const jobId = randomUUID();
      await created(accountId, jobId, 10);
      expect(await waitForEvent(jobId, 'hold_rejected')).toMatchObject({ credits_required: 10, credits_available: 0 });
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 0, held: 0, available: 0 });
      expect(await allEntries(accountId)).toEqual([]);
    });

    it('holds nothing for a created event that arrives after the job was cancelled', async () => {
      const accountId = await newAccount(50);
      const jobId = randomUUID();
      await send('cancelled', base(accountId, jobId));
      await drained();
      await created(accountId, jobId, 10);
      await drained();
      expect(eventsOf(jobId)).toEqual([]);
      expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 50, held: 0, available: 50 });
    });

    describe('extend_hold: the price of the input the worker actually fetched', () => {
      const extend = (accountId: string, jobId: string, seconds: number) =>
        rpc.call('extend_hold', { version: 1, job_id: jobId, account_id: accountId, job_type: 'clean-audio-video', duration_seconds: seconds });

      it('covers a measured duration within the hold without touching the ledger', async () => {
        const accountId = await newAccount(100);
        const jobId = randomUUID();
        await created(accountId, jobId, 10);
        await waitForEvent(jobId, 'hold_placed');
        expect(await extend(accountId, jobId, 9.5)).toEqual({ covered: true, credits_required: 10, credits_held: 10, credits_available: 100 });
        expect((await allEntries(accountId)).map((e) => e.kind)).toEqual(['hold', 'grant']);
      });

      it('raises the hold to the price of a longer input, once however often it is asked, and charges it on completion', async () => {
        const accountId = await newAccount(100);
        const jobId = randomUUID();
        await created(accountId, jobId, 5);
        await waitForEvent(jobId, 'hold_placed');
        expect(await extend(accountId, jobId, 60)).toEqual({ covered: true, credits_required: 60, credits_held: 60, credits_available: 100 });
        expect(await extend(accountId, jobId, 60)).toMatchObject({ covered: true, credits_held: 60 });
        expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 100, held: 60, available: 40 });
        await completed(accountId, jobId, 60);
        expect(await waitForEvent(jobId, 'charge_captured')).toMatchObject({ credits_charged: 60, credits_priced: 60, credits_released: 60 });
        expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 40, held: 0, available: 40 });
        expect((await allEntries(accountId)).map((e) => [e.kind, e.credits])).toEqual([['charge', 60], ['release', 60], ['hold', 55], ['hold', 5], ['grant', 100]]);
      });

      it('refuses, changing nothing, when the account cannot cover the longer input; the failed job then releases the hold', async () => {
        const accountId = await newAccount(15);
        const jobs = [randomUUID(), randomUUID(), randomUUID()];
        for (const jobId of jobs) {
          await created(accountId, jobId, 5);
          await waitForEvent(jobId, 'hold_placed');
        }
        for (const jobId of jobs) expect(await extend(accountId, jobId, 60)).toEqual({ covered: false, credits_required: 60, credits_held: 5, credits_available: 5 });
        expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 15, held: 15, available: 0 });
        for (const jobId of jobs) await send('failed', { ...base(accountId, jobId), error: { code: 'insufficient_credits', message: 'x', details: null } });
        for (const jobId of jobs) await waitForEvent(jobId, 'hold_released');
        expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 15, held: 0, available: 15 });
      });

      it('answers conflict for a job that holds nothing (it ended meanwhile)', async () => {
        const accountId = await newAccount(50);
        const jobId = randomUUID();
        await created(accountId, jobId, 10);
        await waitForEvent(jobId, 'hold_placed');
        await send('cancelled', base(accountId, jobId));
        await waitForEvent(jobId, 'hold_released');
        await expect(extend(accountId, jobId, 20)).rejects.toMatchObject({ code: 'conflict' });
        await expect(extend(accountId, jobId, -1)).rejects.toMatchObject({ code: 'invalid_request' });
      });
    });

    it('quotes the job type maximum for a created event without an estimate (jobs created before billing)', async () => {
      const accountId = await newAccount(5000);
      const jobId = randomUUID();
      await send('created', { ...base(accountId, jobId), options: CLEAN_AUDIO_DEFAULTS });
      expect(await waitForEvent(jobId, 'hold_placed')).toMatchObject({ credits_held: DEFAULT_PRICES['clean-audio-video'].max_duration_seconds });
    });
  });

  it('holds for at most as many of 50 concurrent jobs as the credits cover, and never goes below zero', async () => {
    const accountId = await newAccount(100);
    const jobIds = Array.from({ length: 50 }, () => randomUUID());
    await Promise.all(jobIds.map((jobId) => created(accountId, jobId, 10)));
    await waitFor('50 decisions', async () => jobIds.every((id) => eventsOf(id).length === 1), 60_000);
    const held = jobIds.filter((id) => eventsOf(id)[0].kind === 'hold_placed');
    expect(held).toHaveLength(10);
    expect(jobIds.filter((id) => eventsOf(id)[0].kind === 'hold_rejected')).toHaveLength(40);
    expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 100, held: 100, available: 0 });
    const entries = await allEntries(accountId);
    expect(Math.min(...entries.map((e) => e.balance_after - e.held_after))).toBeGreaterThanOrEqual(0);

    // Charges settle concurrently too; the account's entries stay consistent with its totals.
    await Promise.all(held.map((jobId) => completed(accountId, jobId, 7)));
    await waitFor('10 charges', async () => held.every((id) => eventsOf(id).some((e) => e.kind === 'charge_captured')), 60_000);
    expect(await balance(accountId)).toEqual({ account_id: accountId, balance: 30, held: 0, available: 30 });
  });

  describe('reports', () => {
    it('usage totals equal the sum of the ledger charges, by day and by job type', async () => {
      const accountId = await newAccount(1000);
      const jobs: [string, JobType, number][] = [
        [randomUUID(), 'clean-audio-video', 12],
        [randomUUID(), 'clean-audio-video', 30.5],
        [randomUUID(), 'video-background-removal', 9],
      ];
      for (const [jobId, jobType, seconds] of jobs) {
        const options = jobType === 'clean-audio-video' ? CLEAN_AUDIO_DEFAULTS : BACKGROUND_REMOVAL_DEFAULTS;
        await send('created', { ...base(accountId, jobId, jobType), options, estimate: estimate(100) });
        await waitForEvent(jobId, 'hold_placed');
        const result = jobType === 'clean-audio-video'
          ? { job_type: jobType, video: { object_key: 'r', content_type: 'video/mp4', file_name: 'r.mp4', file_size: 1 } }
          : { job_type: jobType, files: [] };
        await send('completed', { ...base(accountId, jobId, jobType), result, media_duration_seconds: seconds } as JobEventPayloads['completed']);
        await waitForEvent(jobId, 'charge_captured');
      }
      const charges = (await allEntries(accountId)).filter((e) => e.kind === 'charge');
      const ledgerSum = charges.reduce((sum, e) => sum + e.credits, 0);
      const { rows: [sql] } = await db.query(`SELECT sum(credits)::int AS credits, count(*)::int AS jobs FROM billing.ledger_entry WHERE account_id = $1 AND kind = 'charge'`, [accountId]);
      expect(ledgerSum).toBe(sql.credits);

      const from = new Date(Date.now() - 24 * 3600_000).toISOString();
      const to = new Date(Date.now() + 24 * 3600_000).toISOString();
      const byType = await rpc.call('usage', { version: 1, account_id: accountId, from, to, group_by: 'job_type' });
      expect(byType.rows).toEqual([
        { key: 'clean-audio-video', jobs: 2, billed_seconds: 43, credits: 43 },
        { key: 'video-background-removal', jobs: 1, billed_seconds: 9, credits: 27 },
      ]);
      expect(byType.totals).toEqual({ jobs: 3, billed_seconds: 52, credits: ledgerSum });
      const byDay = await rpc.call('usage', { version: 1, account_id: accountId, from, to, group_by: 'day' });
      expect(byDay.totals).toEqual(byType.totals);
      expect(byDay.rows.reduce((sum, row) => sum + row.credits, 0)).toBe(ledgerSum);
      expect(byDay.rows.every((row) => /^\d{4}-\d{2}-\d{2}$/.test(row.key))).toBe(true);

      const past = await rpc.call('usage', { version: 1, account_id: accountId, from: '2020-01-01', to: '2020-02-01', group_by: 'day' });
      expect(past).toMatchObject({ rows: [], totals: { jobs: 0, billed_seconds: 0, credits: 0 } });
      await expect(rpc.call('usage', { version: 1, account_id: accountId, from: to, to: from, group_by: 'day' })).rejects.toMatchObject({ code: 'invalid_request' });
    });

    it('pages the ledger newest first and refuses a forged cursor', async () => {
      const accountId = await newAccount(0);
      for (let i = 1; i <= 5; i++) await rpc.call('grant', { version: 1, account_id: accountId, amount: i, idempotency_key: `g${i}` });
      const first = await rpc.call('ledger', { version: 1, account_id: accountId, limit: 2 });
      expect(first.entries.map((e) => e.credits)).toEqual([5, 4]);
      const second = await rpc.call('ledger', { version: 1, account_id: accountId, limit: 2, cursor: first.next_cursor! });
      expect(second.entries.map((e) => e.credits)).toEqual([3, 2]);
      const third = await rpc.call('ledger', { version: 1, account_id: accountId, limit: 2, cursor: second.next_cursor! });
      expect(third).toMatchObject({ next_cursor: null });
      expect(third.entries.map((e) => e.credits)).toEqual([1]);
      await expect(rpc.call('ledger', { version: 1, account_id: accountId, limit: 2, cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: 'invalid_request' });
    });

    it('keeps every account total equal to its ledger', async () => {
      const { rows } = await db.query(`
        SELECT a.account_id, a.balance, a.held,
               coalesce(sum(CASE e.kind WHEN 'grant' THEN e.credits WHEN 'charge' THEN -e.credits ELSE 0 END), 0)::int AS ledger_balance,
               coalesce(sum(CASE e.kind WHEN 'hold' THEN e.credits WHEN 'release' THEN -e.credits ELSE 0 END), 0)::int AS ledger_held
          FROM billing.account a LEFT JOIN billing.ledger_entry e USING (account_id)
         GROUP BY a.account_id, a.balance, a.held`);
      expect(rows.length).toBeGreaterThan(10);
      for (const row of rows) expect([row.balance, row.held]).toEqual([row.ledger_balance, row.ledger_held]);
    });

    it('refuses to change or delete a ledger entry', async () => {
      await expect(db.query(`UPDATE billing.ledger_entry SET credits = credits + 1`)).rejects.toThrow(/append-only/);
      await expect(db.query(`DELETE FROM billing.ledger_entry`)).rejects.toThrow(/append-only/);
    });
  });

  it('makes a changed price file the next price version, and a restart with the same prices keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vj-prices-'));
    const file = join(dir, 'prices.json');
    writeFileSync(file, JSON.stringify({ ...DEFAULT_PRICES, 'clean-audio-video': { ...DEFAULT_PRICES['clean-audio-video'], credits_per_second: 2.5 } }));
    const config = billingEnv.parse({ NATS_URL: nats.url, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error', BILLING_PRICES_FILE: file });
    await billing.stop();
    billing = await bootBilling(config);
    const list = await rpc.call('price_list', { version: 1 });
    expect(list.version).toBe(2);
    expect(quoteJob(list, 'clean-audio-video', CLEAN_AUDIO_DEFAULTS, 3)).toEqual({ credits_estimated: 8, duration_seconds: 3, basis: 'probed_duration', price_version: 2 });
    await billing.stop();
    billing = await bootBilling(config);
    expect(await rpc.call('price_list', { version: 1 })).toMatchObject({ version: 2 });
  });
});
