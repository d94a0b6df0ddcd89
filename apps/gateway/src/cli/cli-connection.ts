import type { ServiceName } from '@vj/contracts';
import { BillingRpcClient, JobsRpcClient, natsHost, natsServerOptions, pingHealth } from '@vj/messaging';
import { connect } from 'nats';
import type { BillingPort } from '../billing';
import type { JobsPort } from '../jobs';
import { RpcBillingAdapter } from '../messaging/rpc-billing.adapter';
import { RpcJobsAdapter } from '../messaging/rpc-jobs.adapter';
import { DeadLetters } from './dead-letters';

const CONNECT_TIMEOUT_MS = 5_000;
const PING_TIMEOUT_MS = 2_000;
const CALL_TIMEOUT_MS = 10_000;

export class ServiceUnreachableError extends Error {}

// The services an operator command reaches over NATS: billing (grants), jobs (a suspended account's
// jobs are cancelled) and the kept dead letters.
export interface CliConnection {
  billing: BillingPort;
  jobs: JobsPort;
  deadLetters: DeadLetters;
  // True once an instance of the service answers its health ping as ready.
  isReady(service: ServiceName): Promise<boolean>;
  close(): Promise<void>;
}

// Unlike the services' connection (connectNats waits for NATS forever), an operator command fails within
// seconds when NATS is not there.
export async function connectCli(natsUrl: string): Promise<CliConnection> {
  const nc = await connect({ ...natsServerOptions(natsUrl), name: 'gateway-cli', timeout: CONNECT_TIMEOUT_MS, maxReconnectAttempts: 0 }).catch((error: unknown) => {
    // The URL may carry a password: only its host is named.
    throw new ServiceUnreachableError(`cannot reach NATS at ${natsHost(natsUrl)}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return {
    billing: new RpcBillingAdapter(new BillingRpcClient(nc, CALL_TIMEOUT_MS)),
    jobs: new RpcJobsAdapter(new JobsRpcClient(nc, CALL_TIMEOUT_MS), CALL_TIMEOUT_MS),
    deadLetters: new DeadLetters(nc),
    isReady: async (service) => (await pingHealth(nc, service, PING_TIMEOUT_MS))?.ready === true,
    close: () => nc.drain(),
  };
}
