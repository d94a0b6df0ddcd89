import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { LedgerEntryV1 } from '@vj/contracts';
import type { CreatedAccount } from '../identity';
import { BillingServiceError } from './billing-port';
import { bearer, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';

const DAY_MS = 24 * 3600 * 1000;

function ledgerEntry(index: number): LedgerEntryV1 {
  return {
    entry_id: randomUUID(),
    kind: index % 2 ? 'charge' : 'hold',
    credits: 10 + index,
    job_id: randomUUID(),
    job_type: 'clean-audio-video',
    balance_after: 1000 - index,
    held_after: index,
    created_at: new Date(Date.UTC(2025, 0, 10) - index * 1000).toISOString(),
  };
}

describe('billing endpoints', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;

  beforeAll(async () => {
    gw = await startGateway('gateway_billing_api');
    alice = await gw.newAccount('alice');
  });

  afterAll(() => gw.stop());

  const get = (path: string, account = alice) => request(gw.server).get(path).set(bearer(account));

  function expectInvalid(res: request.Response, status: number, fields: string[]): void {
    expect(res.status).toBe(status);
    expectSchema('RequestError', res.body);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
  }

  describe('GET /v1/billing/balance', () => {
    it("answers 200 with the caller's balance, held and available credits", async () => {
      await gw.billing.grant({ version: 1, account_id: alice.account_id, amount: 500, idempotency_key: 'start' });
      const res = await get('/v1/billing/balance');
      expect(res.status).toBe(200);
      expectSchema('Balance', res.body);
      expect(res.body).toEqual({ account_id: alice.account_id, balance: 500, held: 0, available: 500 });
    });

    it('answers 503 unavailable when billing cannot be reached', async () => {
      gw.billing.reachable = false;
      try {
        const res = await get('/v1/billing/balance');
        expect(res.status).toBe(503);
        expectSchema('RequestError', res.body);
        expect(res.body.error.code).toBe('unavailable');
      } finally {
        gw.billing.reachable = true;
      }
    });

    it('answers 500 internal, hiding the cause, when billing fails', async () => {
      const original = gw.billing.balance;
      gw.billing.balance = async () => {
        throw new BillingServiceError('internal', 'ledger table missing');
      };
      try {
        const res = await get('/v1/billing/balance');
        expect(res.status).toBe(500);
        expectSchema('RequestError', res.body);
        expect(res.body.error.message).not.toContain('ledger');
      } finally {
        gw.billing.balance = original;
      }
    });
  });

  describe('GET /v1/billing/usage', () => {
    const dayRows = [
      { key: '2025-01-01', jobs: 2, billed_seconds: 90, credits: 180 },
      { key: '2025-01-02', jobs: 1, billed_seconds: 30, credits: 60 },
    ];
    const typeRows = [
      { key: 'clean-audio-video', jobs: 2, billed_seconds: 90, credits: 180 },
      { key: 'video-background-removal', jobs: 1, billed_seconds: 30, credits: 60 },
    ];

    beforeEach(() => (gw.billing.usageRows = dayRows));

    it('answers 200 JSON grouped by day over the last 30 days by default', async () => {
      const before = Date.now();
      const res = await get('/v1/billing/usage');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.vary).toMatch(/Accept/);
      expectSchema('UsageReport', res.body);
      const sent = gw.billing.usageRequests.at(-1);
      expect(sent).toMatchObject({ version: 1, account_id: alice.account_id, group_by: 'day' });
      expect(Date.parse(sent?.to ?? '')).toBeGreaterThanOrEqual(before);
      expect(Date.parse(sent?.to ?? '') - Date.parse(sent?.from ?? '')).toBe(30 * DAY_MS);
      expect(res.body).toEqual({
        account_id: alice.account_id,
        from: sent?.from,
        to: sent?.to,
        group_by: 'day',
        rows: [
          { day: '2025-01-01', jobs: 2, billed_seconds: 90, credits: 180 },
          { day: '2025-01-02', jobs: 1, billed_seconds: 30, credits: 60 },
        ],
        totals: { jobs: 3, billed_seconds: 120, credits: 240 },
      });
    });

    it('names the rows by job_type with group_by=job_type', async () => {
      gw.billing.usageRows = typeRows;
      const res = await get('/v1/billing/usage?group_by=job_type&from=2025-01-01&to=2025-02-01');
      expect(res.status).toBe(200);
      expectSchema('UsageReport', res.body);
      expect(res.body.group_by).toBe('job_type');
      expect(res.body.rows[0]).toEqual({ job_type: 'clean-audio-video', jobs: 2, billed_seconds: 90, credits: 180 });
    });

    it.each([
      ['dates as UTC midnights', 'from=2025-01-01&to=2025-01-31', '2025-01-01T00:00:00.000Z', '2025-01-31T00:00:00.000Z'],
      ['date-times with offsets in UTC', 'from=2025-01-01T10:30:00%2B02:00&to=2025-01-02T00:00:00.5Z', '2025-01-01T08:30:00.000Z', '2025-01-02T00:00:00.500Z'],
      ['a date-time without offset as UTC', 'from=2025-01-01T06:00&to=2025-01-01T07:00', '2025-01-01T06:00:00.000Z', '2025-01-01T07:00:00.000Z'],
      ['from alone, up to now', 'from=2025-01-01', '2025-01-01T00:00:00.000Z', undefined],
    ])('sends %s to billing', async (_name, query, from, to) => {
      jest.useFakeTimers({ now: Date.parse('2025-06-01T00:00:00Z'), doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval'] });
      try {
        const res = await get(`/v1/billing/usage?${query}`);
        expect(res.status).toBe(200);
        expectSchema('UsageReport', res.body);
      } finally {
        jest.useRealTimers();
      }
      expect(gw.billing.usageRequests.at(-1)).toMatchObject({ from, to: to ?? '2025-06-01T00:00:00.000Z' });
    });

    it('accepts a range of exactly 366 days', async () => {
      expect((await get('/v1/billing/usage?from=2024-01-01&to=2025-01-01')).status).toBe(200);
    });

    it('answers CSV when the Accept header asks for text/csv: header, one line per row, then the totals', async () => {
      const res = await get('/v1/billing/usage?from=2025-01-01&to=2025-02-01').set('Accept', 'text/csv');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.text).toBe('day,jobs,billed_seconds,credits\n2025-01-01,2,90,180\n2025-01-02,1,30,60\ntotal,3,120,240\n');
    });

    it('names the CSV key column job_type with group_by=job_type', async () => {
      gw.billing.usageRows = typeRows;
      const res = await get('/v1/billing/usage?group_by=job_type').set('Accept', 'text/csv');
      expect(res.text).toBe('job_type,jobs,billed_seconds,credits\nclean-audio-video,2,90,180\nvideo-background-removal,1,30,60\ntotal,3,120,240\n');
    });

    it('answers the CSV header and the total line alone for a window without usage', async () => {
      gw.billing.usageRows = [];
      const res = await get('/v1/billing/usage').set('Accept', 'text/csv');
      expect(res.text).toBe('day,jobs,billed_seconds,credits\ntotal,0,0,0\n');
    });

    it.each([
      ['*/*', 'json'],
      ['application/json', 'json'],
      ['application/json, text/csv', 'json'],
      ['text/csv;q=0.5, application/json', 'json'],
      ['text/csv, application/json', 'csv'],
      ['application/json;q=0.9, text/csv', 'csv'],
      ['text/*', 'csv'],
    ])('negotiates Accept: %s as %s', async (accept, format) => {
      const res = await get('/v1/billing/usage').set('Accept', accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(format === 'csv' ? /^text\/csv/ : /^application\/json/);
    });

    it.each([
      ['from=yesterday', ['from']],
      ['from=2025-02-30', ['from']],
      ['to=2025-13-01', ['to']],
      ['to=2025-01-01T24:00:00Z', ['to']],
      ['from=2025-W01', ['from']],
      ['from=', ['from']],
      ['from=2025-01-01&from=2025-01-02', ['from']],
      ['group_by=week', ['group_by']],
      ['from=x&to=y&group_by=z', ['from', 'to', 'group_by']],
      ['from=2025-01-02&to=2025-01-01', ['from']],
      ['from=2025-01-01&to=2025-01-01', ['from']],
      ['from=2024-01-01&to=2025-01-01T00:00:01Z', ['from']],
      ['from=2024-01-01&format=csv', ['format']],
    ])('answers ?%s with 422 invalid_request naming the fields', async (query, fields) => {
      expectInvalid(await get(`/v1/billing/usage?${query}`), 422, fields);
    });

    it('answers a bad query with a JSON error even when CSV is asked for', async () => {
      const res = await get('/v1/billing/usage?group_by=week').set('Accept', 'text/csv');
      expectInvalid(res, 422, ['group_by']);
    });
  });

  describe('GET /v1/billing/ledger', () => {
    beforeAll(() => (gw.billing.ledgerEntries = Array.from({ length: 3 }, (_, i) => ledgerEntry(i))));

    it('answers 200 with up to 20 entries and next_cursor by default', async () => {
      const res = await get('/v1/billing/ledger');
      expect(res.status).toBe(200);
      expectSchema('LedgerPage', res.body);
      expect(gw.billing.ledgerRequests.at(-1)).toEqual({ version: 1, account_id: alice.account_id, limit: 20 });
      expect(res.body).toEqual({ data: gw.billing.ledgerEntries, next_cursor: null });
    });

    it('pages with limit and next_cursor', async () => {
      const first = await get('/v1/billing/ledger?limit=2');
      expectSchema('LedgerPage', first.body);
      expect(first.body.data).toHaveLength(2);
      const second = await get(`/v1/billing/ledger?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expectSchema('LedgerPage', second.body);
      expect(second.body).toEqual({ data: [gw.billing.ledgerEntries[2]], next_cursor: null });
    });

    it.each([
      ['limit=0', ['limit']],
      ['limit=101', ['limit']],
      ['limit=ten', ['limit']],
      ['limit=2&page=3', ['page']],
    ])('answers ?%s with 422 invalid_request naming the fields', async (query, fields) => {
      expectInvalid(await get(`/v1/billing/ledger?${query}`), 422, fields);
    });

    it('answers a cursor billing refuses with 422 invalid_request', async () => {
      const res = await get('/v1/billing/ledger?cursor=not-a-cursor');
      expect(res.status).toBe(422);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('invalid_request');
    });
  });
});
