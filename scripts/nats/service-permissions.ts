import {
  BILLING_EVENT_KINDS,
  BILLING_RPC_METHODS,
  CONSUMERS,
  JOB_EVENT_KINDS,
  JOB_REPORT_KINDS,
  MEDIA_RPC_METHODS,
  RPC_ENDPOINTS,
  RPC_METHODS,
  SERVICES,
  WEBHOOKS_RPC_METHODS,
  STREAM_SUBJECTS,
  STREAMS,
  subjects,
  type ConsumerName,
  type ConsumerRef,
  type ServiceName,
  type StreamName,
} from '@vj/contracts';

// What each NATS user of a deployment may publish and subscribe, derived from the name catalogue so a
// new RPC method, event kind, job type, stream or consumer reaches the server configuration
// (deploy/nats/nats.conf, rendered by scripts/render-nats-config.ts) without anyone listing subjects.

// One user per service, one for the operator CLI (apps/gateway/src/cli), and one per internal consumer
// of the event streams (job-counts: examples/job-counts).
export const NATS_USERS = ['gateway', 'jobs', 'render-worker', 'billing', 'webhook-delivery', 'operator', 'job-counts'] as const;
export type NatsUser = (typeof NATS_USERS)[number];

// The environment variable holding a user's password in a deployment: NATS_GATEWAY_PASSWORD,
// NATS_RENDER_WORKER_PASSWORD... (deploy/nats/nats.conf reads it, docker-compose.yml sets it).
export function natsPasswordVariable(user: NatsUser): string {
  return `NATS_${user.toUpperCase().replace(/-/g, '_')}_PASSWORD`;
}

export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
  // Lets a responder publish its one reply to a request's reply subject, so no responder needs a
  // publish permission on other clients' inboxes.
  allowResponses: boolean;
}

// The reply inboxes of the requests a client makes (nats.js default prefix): RPC calls, health pings,
// JetStream API calls, JetStream publish acknowledgements and pulled messages all come back there.
export const INBOX_SUBJECTS = '_INBOX.>';

// JetStream's own API subjects (nats-server jsapi), for the calls nats.js makes on our behalf.
export const jetStreamApi = {
  accountInfo: () => '$JS.API.INFO',
  streamInfo: (stream: StreamName) => `$JS.API.STREAM.INFO.${stream}`,
  streamCreate: (stream: StreamName) => `$JS.API.STREAM.CREATE.${stream}`,
  streamUpdate: (stream: StreamName) => `$JS.API.STREAM.UPDATE.${stream}`,
  streamMessageGet: (stream: StreamName) => `$JS.API.STREAM.MSG.GET.${stream}`,
  streamMessageDelete: (stream: StreamName) => `$JS.API.STREAM.MSG.DELETE.${stream}`,
  consumerInfo: (stream: StreamName, durable: ConsumerName) => `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
  // nats.js 2.x against nats-server 2.9+ names the filter subject after the consumer (.CREATE.S.C.<filter>);
  // older paths are kept so a client or server version change does not lock a service out.
  consumerCreate: (stream: StreamName, durable: ConsumerName) => [
    `$JS.API.CONSUMER.CREATE.${stream}.${durable}`,
    `$JS.API.CONSUMER.CREATE.${stream}.${durable}.>`,
    `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
  ],
  pullNext: (stream: StreamName, durable: ConsumerName) => `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
  // ack, nak, term and working() are published to the delivered message's reply subject.
  acks: (stream: StreamName, durable: ConsumerName) => `$JS.ACK.${stream}.${durable}.>`,
} as const;

export interface OwnedConsumer extends ConsumerRef {
  // Watches its own MAX_DELIVERIES advisory (ConsumerSpec.advisoryDeadLetters, default true).
  advisoryDeadLetters: boolean;
}

// How one service uses NATS, in the catalogue's terms; RPC is declared separately (RPC_ACCESS).
export interface ServiceMessaging {
  // Streams created or updated at boot (ensureStreams in libs/messaging declares all of them).
  ensuresStreams: readonly StreamName[];
  // Subjects published into streams (outboxes, reports).
  streamPublishes: readonly string[];
  // Durable pull consumers the service creates and pulls from.
  consumers: readonly OwnedConsumer[];
  // Consumers of another service whose MAX_DELIVERIES dead letters this one handles.
  deadLetterWatches: readonly ConsumerRef[];
  // Plain core subscriptions (not RPC, not health).
  subscribes: readonly string[];
  // Streams read message by message (no consumer): the gateway follows one job's updates.
  readsStreams?: readonly StreamName[];
  servesHealth?: ServiceName;
  pingsHealth: readonly ServiceName[];
  // Lists, replays (a publish into streamPublishes) and deletes the kept dead letters: the operator.
  tendsDeadLetters?: boolean;
}

const ALL_STREAMS = Object.keys(STREAM_SUBJECTS) as StreamName[];

export const SERVICE_MESSAGING: Record<NatsUser, ServiceMessaging> = {
  // Follows one job at a time for SSE and Prefer: wait: woken by the job's update subject, reading the
  // stored updates in order.
  gateway: {
    ensuresStreams: [],
    streamPublishes: [],
    consumers: [],
    deadLetterWatches: [],
    subscribes: [subjects.jobUpdateAll()],
    readsStreams: [STREAMS.jobUpdates],
    pingsHealth: SERVICES,
  },
  jobs: {
    ensuresStreams: ALL_STREAMS,
    // The outbox relay: work for the render workers, the job lifecycle events and each job's state updates.
    streamPublishes: [...subjects.workEvery(), ...JOB_EVENT_KINDS.map((kind) => subjects.jobEvent(kind)), subjects.jobUpdateAll()],
    consumers: [
      { stream: STREAMS.reports, durable: CONSUMERS.jobsReports, advisoryDeadLetters: true },
      { stream: STREAMS.billingEvents, durable: CONSUMERS.jobsBillingEvents, advisoryDeadLetters: true },
    ],
    // A worker that died on the last attempt cannot report: the jobs service fails the job.
    deadLetterWatches: [{ stream: STREAMS.work, durable: CONSUMERS.renderWorker }],
    subscribes: [],
    servesHealth: 'jobs',
    pingsHealth: [],
  },
  'render-worker': {
    ensuresStreams: ALL_STREAMS,
    // Reports to the jobs service, and the progress of the jobs it runs.
    streamPublishes: [...JOB_REPORT_KINDS.map((kind) => subjects.report(kind)), subjects.jobUpdateAll()],
    consumers: [{ stream: STREAMS.work, durable: CONSUMERS.renderWorker, advisoryDeadLetters: false }],
    deadLetterWatches: [],
    // The cancel listener: every worker hears the events that end a job it may be running.
    subscribes: JOB_EVENT_KINDS.map((kind) => subjects.jobEvent(kind)),
    servesHealth: 'render-worker',
    pingsHealth: [],
  },
  billing: {
    ensuresStreams: ALL_STREAMS,
    streamPublishes: BILLING_EVENT_KINDS.map((kind) => subjects.billingEvent(kind)),
    consumers: [{ stream: STREAMS.jobEvents, durable: CONSUMERS.billingJobEvents, advisoryDeadLetters: true }],
    deadLetterWatches: [],
    subscribes: [],
    servesHealth: 'billing',
    pingsHealth: [],
  },
  // Turns job events and progress into deliveries; reads a job from the jobs service to render it.
  'webhook-delivery': {
    ensuresStreams: ALL_STREAMS,
    streamPublishes: [],
    consumers: [
      { stream: STREAMS.jobEvents, durable: CONSUMERS.webhooksJobEvents, advisoryDeadLetters: false },
      { stream: STREAMS.jobUpdates, durable: CONSUMERS.webhooksJobUpdates, advisoryDeadLetters: false },
    ],
    deadLetterWatches: [],
    subscribes: [],
    servesHealth: 'webhook-delivery',
    pingsHealth: [],
  },
  // An internal service reading the job event log with its own durable consumer (libs/job-events).
  'job-counts': {
    ensuresStreams: [],
    streamPublishes: [],
    consumers: [{ stream: STREAMS.jobEvents, durable: CONSUMERS.jobCounts, advisoryDeadLetters: false }],
    deadLetterWatches: [],
    subscribes: [],
    pingsHealth: [],
  },
  // The CLI checks that a service answers before a command that needs it (billing, for credits), and
  // replays a dead letter into the subject it came from.
  operator: {
    ensuresStreams: [],
    streamPublishes: ALL_STREAMS.filter((stream) => stream !== STREAMS.deadLetters).flatMap((stream) => STREAM_SUBJECTS[stream]),
    consumers: [],
    deadLetterWatches: [],
    subscribes: [],
    pingsHealth: SERVICES,
    tendsDeadLetters: true,
  },
};

export type RpcEndpointName = keyof typeof RPC_ENDPOINTS;

// The methods of one catalogue a caller may request: all of them (methods added later included), all
// but a few, or only a few. Names are compared with the declared methods, so a method named here
// before its catalogue declares it is simply not granted yet.
export type MethodSelection = 'every' | { except: readonly string[] } | { only: readonly string[] };

export interface RpcAccess {
  server: NatsUser;
  callers: Partial<Record<NatsUser, MethodSelection>>;
}

// Billing methods meant for one caller: credit grants are the operator's; raising a hold to the price
// of the input actually fetched is the render worker's. The gateway calls every other billing method.
const OPERATOR_BILLING_METHODS = ['grant'];
const WORKER_BILLING_METHODS = ['extend_hold'];
// The jobs methods the operator CLI calls on an account's jobs (suspending an account cancels them).
const OPERATOR_JOBS_METHODS = ['delete', 'cancel_account'];
// A worker asks for a job's status before it starts (a cancelled job is not run); the webhook delivery
// service reads a job to put it in a webhook.
const WORKER_JOBS_METHODS = ['get'];
const WEBHOOK_JOBS_METHODS = ['get'];

export const RPC_ACCESS: Record<RpcEndpointName, RpcAccess> = {
  jobs: {
    server: 'jobs',
    callers: {
      gateway: 'every',
      'render-worker': { only: WORKER_JOBS_METHODS },
      'webhook-delivery': { only: WEBHOOK_JOBS_METHODS },
      operator: { only: OPERATOR_JOBS_METHODS },
    },
  },
  billing: {
    server: 'billing',
    callers: {
      gateway: { except: [...OPERATOR_BILLING_METHODS, ...WORKER_BILLING_METHODS] },
      'render-worker': { only: WORKER_BILLING_METHODS },
      operator: { only: OPERATOR_BILLING_METHODS },
    },
  },
  media: { server: 'render-worker', callers: { gateway: 'every' } },
  webhooks: { server: 'webhook-delivery', callers: { gateway: 'every' } },
};

export type RpcMethodLists = Record<RpcEndpointName, readonly string[]>;

// The method lists of names.ts; tests pass others to show that new methods are picked up.
export const DECLARED_RPC_METHODS: RpcMethodLists = {
  jobs: RPC_METHODS,
  billing: BILLING_RPC_METHODS,
  media: MEDIA_RPC_METHODS,
  webhooks: WEBHOOKS_RPC_METHODS,
};

function selectMethods(declared: readonly string[], selection: MethodSelection): string[] {
  if (selection === 'every') return [...declared];
  if ('except' in selection) return declared.filter((method) => !selection.except.includes(method));
  return declared.filter((method) => selection.only.includes(method));
}

function rpcSubject(endpoint: RpcEndpointName, method: string): string {
  return (RPC_ENDPOINTS[endpoint].subject as (method: string) => string)(method);
}

// The RPC subjects a user requests (as a caller) and answers (as the server).
export function rpcSubjects(user: NatsUser, methods: RpcMethodLists = DECLARED_RPC_METHODS): { requests: string[]; serves: string[] } {
  const requests: string[] = [];
  const serves: string[] = [];
  for (const endpoint of Object.keys(RPC_ACCESS) as RpcEndpointName[]) {
    const access = RPC_ACCESS[endpoint];
    if (access.server === user) serves.push(...methods[endpoint].map((method) => rpcSubject(endpoint, method)));
    const selection = access.callers[user];
    if (selection) requests.push(...selectMethods(methods[endpoint], selection).map((method) => rpcSubject(endpoint, method)));
  }
  return { requests, serves };
}

function jetStreamSubjects(messaging: ServiceMessaging): { publish: string[]; subscribe: string[] } {
  const publish: string[] = [];
  const subscribe: string[] = [];
  const usesJetStream = messaging.ensuresStreams.length > 0 || messaging.consumers.length > 0 || messaging.deadLetterWatches.length > 0;
  // nc.jetstreamManager() checks the account's JetStream first.
  if (usesJetStream) publish.push(jetStreamApi.accountInfo());
  for (const stream of messaging.ensuresStreams) {
    publish.push(jetStreamApi.streamInfo(stream), jetStreamApi.streamCreate(stream), jetStreamApi.streamUpdate(stream));
  }
  // A reader skips the account check (jetstreamManager({ checkAPI: false })): it may only get messages.
  for (const stream of messaging.readsStreams ?? []) publish.push(jetStreamApi.streamMessageGet(stream));
  for (const consumer of messaging.consumers) {
    const { stream, durable } = consumer;
    publish.push(
      jetStreamApi.consumerInfo(stream, durable),
      ...jetStreamApi.consumerCreate(stream, durable),
      jetStreamApi.pullNext(stream, durable),
      jetStreamApi.acks(stream, durable),
    );
  }
  // A dead letter is read from its stream by sequence, kept in VJ_DEAD_LETTERS, handled, then deleted.
  const deadLetterSources = [...messaging.consumers.filter((c) => c.advisoryDeadLetters), ...messaging.deadLetterWatches];
  for (const { stream, durable } of deadLetterSources) {
    subscribe.push(subjects.maxDeliveriesAdvisory(stream, durable));
    publish.push(jetStreamApi.streamMessageGet(stream), jetStreamApi.streamMessageDelete(stream));
  }
  // Any consumer's last attempt is kept there too.
  for (const { durable } of [...messaging.consumers, ...messaging.deadLetterWatches]) publish.push(subjects.deadLetter(durable));
  if (messaging.tendsDeadLetters) {
    publish.push(
      jetStreamApi.accountInfo(),
      jetStreamApi.streamInfo(STREAMS.deadLetters),
      jetStreamApi.streamMessageGet(STREAMS.deadLetters),
      jetStreamApi.streamMessageDelete(STREAMS.deadLetters),
    );
  }
  return { publish, subscribe };
}

const sortedUnique = (values: string[]) => [...new Set(values)].sort();

// Every user's permissions, from the catalogue (and the given RPC method lists).
export function natsPermissions(methods: RpcMethodLists = DECLARED_RPC_METHODS): Record<NatsUser, NatsPermissions> {
  const result = {} as Record<NatsUser, NatsPermissions>;
  for (const user of NATS_USERS) {
    const messaging = SERVICE_MESSAGING[user];
    const rpc = rpcSubjects(user, methods);
    const jetStream = jetStreamSubjects(messaging);
    const health = messaging.servesHealth ? [subjects.health(messaging.servesHealth)] : [];
    result[user] = {
      publish: sortedUnique([
        ...messaging.streamPublishes,
        ...rpc.requests,
        ...messaging.pingsHealth.map((service) => subjects.health(service)),
        ...jetStream.publish,
      ]),
      subscribe: sortedUnique([INBOX_SUBJECTS, ...rpc.serves, ...health, ...messaging.subscribes, ...jetStream.subscribe]),
      allowResponses: rpc.serves.length > 0 || health.length > 0,
    };
  }
  return result;
}
