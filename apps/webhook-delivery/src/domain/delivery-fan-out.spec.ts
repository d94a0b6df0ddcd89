import { endpointsFor, webhookBody, webhookTypeOf, type EndpointView } from './delivery-fan-out';

const endpoint = (overrides: Partial<EndpointView>): EndpointView => ({
  endpoint_id: 'e',
  account_id: 'acct',
  events: ['job.started', 'job.completed', 'job.failed', 'job.cancelled'],
  job_id: null,
  disabled_at: null,
  deleted_at: null,
  ...overrides,
});

describe('delivery fan-out', () => {
  it('maps job events to webhook types; created has none', () => {
    expect(webhookTypeOf('completed')).toBe('job.completed');
    expect(webhookTypeOf('started')).toBe('job.started');
    expect(webhookTypeOf('created')).toBeNull();
  });

  it('sends to the account\'s enabled endpoints that asked for the type, and to the job\'s own', () => {
    const all = [
      endpoint({ endpoint_id: 'all' }),
      endpoint({ endpoint_id: 'other-account', account_id: 'acct-2' }),
      endpoint({ endpoint_id: 'disabled', disabled_at: new Date() }),
      endpoint({ endpoint_id: 'deleted', deleted_at: new Date() }),
      endpoint({ endpoint_id: 'failures-only', events: ['job.failed'] }),
      endpoint({ endpoint_id: 'this-job', job_id: 'j1' }),
      endpoint({ endpoint_id: 'other-job', job_id: 'j2' }),
    ];
    expect(endpointsFor('job.completed', { account_id: 'acct', job_id: 'j1' }, all).map((e) => e.endpoint_id)).toEqual(['all', 'this-job']);
    expect(endpointsFor('job.failed', { account_id: 'acct', job_id: 'j3' }, all).map((e) => e.endpoint_id)).toEqual(['all', 'failures-only']);
  });

  it('carries the job as given, with the type and the time of the event', () => {
    const job = { job_id: 'j1', status: 'COMPLETED' };
    expect(JSON.parse(webhookBody('job.completed', '2026-11-24T00:00:00.000Z', job))).toEqual({ type: 'job.completed', timestamp: '2026-11-24T00:00:00.000Z', data: { job } });
  });
});
