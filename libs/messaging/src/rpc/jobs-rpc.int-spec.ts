import type { JobRecordV1 } from '@vj/contracts';
import { startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { connect, type NatsConnection } from 'nats';
import { pingHealth, serveHealth } from './health';
import { JobsRpcClient } from './rpc-client';
import { RpcError } from './rpc-error';
import { serveJobsRpc, type JobsRpcHandlers, type RpcService } from './serve-rpc';

const job = { job_id: 'j1', account_id: 'a1', job_type: 'clean-audio-video', status: 'PROCESSING' } as JobRecordV1;

const handlers: JobsRpcHandlers = {
  create: async () => ({ job, replayed: false }),
  replay: async () => null,
  get: async (request) => {
    if (request.job_id !== job.job_id) throw new RpcError('not_found', 'job not found');
    return job;
  },
  list: async () => ({ jobs: [job], next_cursor: null }),
  cancel: async () => {
    throw new Error('database exploded');
  },
  cancel_account: async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  },
  delete: async () => ({ deleted_at: new Date(0).toISOString() }),
};

describe('jobs RPC and health over core NATS', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;
  let client: JobsRpcClient;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    client = new JobsRpcClient(nc, 1_000);
  });

  afterAll(async () => {
    await nc.close();
    await nats.stop();
  });

  describe('with a responder', () => {
    let service: RpcService;
    beforeAll(() => (service = serveJobsRpc(nc, handlers, { isOutage: (error) => (error as { code?: unknown }).code === 'ECONNREFUSED' })));
    afterAll(() => service.close());

    it('returns the reply data of a round trip', async () => {
      await expect(client.call('get', { version: 1, account_id: 'a1', job_id: 'j1' })).resolves.toEqual(job);
      await expect(client.call('list', { version: 1, account_id: 'a1', limit: 20 })).resolves.toEqual({ jobs: [job], next_cursor: null });
    });

    it('carries the handler error code across the wire', async () => {
      await expect(client.call('get', { version: 1, account_id: 'a1', job_id: 'nope' })).rejects.toMatchObject({ code: 'not_found', message: 'job not found' });
    });

    it('answers internal, without the details, for an unexpected handler error', async () => {
      await expect(client.call('cancel', { version: 1, account_id: 'a1', job_id: 'j1' })).rejects.toMatchObject({ code: 'internal', message: 'internal error' });
    });

    it('answers unavailable when the handler could not reach its database', async () => {
      await expect(client.call('cancel_account', { version: 1, account_id: 'a1' })).rejects.toMatchObject({ code: 'unavailable', message: 'jobs cannot reach its database; try again' });
    });
  });

  it('throws unavailable when nobody serves the method', async () => {
    const error = await client.call('get', { version: 1, account_id: 'a1', job_id: 'j1' }, 300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe('unavailable');
  });

  it('answers health pings with readiness, and null when no instance runs', async () => {
    let ready = false;
    const sub = serveHealth(nc, 'jobs', () => ready, 'instance-1');
    expect(await pingHealth(nc, 'jobs')).toEqual({ version: 1, service: 'jobs', instance: 'instance-1', ready: false });
    ready = true;
    expect((await pingHealth(nc, 'jobs'))?.ready).toBe(true);
    await sub.drain();
    expect(await pingHealth(nc, 'jobs', 200)).toBeNull();
  });
});
