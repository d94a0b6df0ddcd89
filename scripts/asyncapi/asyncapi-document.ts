import { join } from 'node:path';
import {
  BILLING_EVENT_KINDS,
  CONSUMERS,
  JOB_EVENT_KINDS,
  JOB_REPORT_KINDS,
  JOB_TYPES,
  PIECED_JOB_TYPE,
  STREAMS,
  WORK_PIECES,
  subjects,
  type BillingEventKind,
  type JobEventKind,
  type JobReportKind,
  type JobType,
  type StreamName,
  type WorkPiece,
} from '@vj/contracts';
import { createGenerator } from 'ts-json-schema-generator';

// The AsyncAPI 3 document of every JetStream stream, subject and payload (libs/contracts), for internal
// consumers. Rendered by scripts/render-asyncapi.ts into libs/contracts/src/messaging/asyncapi.json,
// served by the gateway at /docs/events; a test fails when the file is stale.

export const ASYNCAPI_PATH = join(__dirname, '..', '..', 'libs', 'contracts', 'src', 'messaging', 'asyncapi.json');
export const RENDER_ASYNCAPI_COMMAND = 'node scripts/run-ts.cjs scripts/render-asyncapi.ts';

// Each subject kind's payload type (records over the kinds: a new kind without its type does not compile).
const WORK_TYPES: Record<JobType, string> = { 'clean-audio-video': 'CleanAudioVideoWorkV1', 'video-background-removal': 'VideoBackgroundRemovalWorkV1' };
const REPORT_TYPES: Record<JobReportKind, string> = {
  started: 'JobStartedReportV1',
  retrying: 'JobRetryingReportV1',
  succeeded: 'JobSucceededReportV1',
  failed: 'JobFailedReportV1',
  planned: 'JobPlannedReportV1',
  plate_stored: 'PlateStoredReportV1',
  segment_done: 'SegmentDoneReportV1',
};
const WORK_PIECE_TYPES: Record<WorkPiece, string> = { pass: 'PlatePassWorkV1', segment: 'SegmentWorkV1', join: 'SegmentJoinWorkV1' };
const JOB_EVENT_TYPES: Record<JobEventKind, string> = {
  created: 'JobCreatedEventV1',
  started: 'JobStartedEventV1',
  completed: 'JobCompletedEventV1',
  failed: 'JobFailedEventV1',
  cancelled: 'JobCancelledEventV1',
};
const BILLING_EVENT_TYPES: Record<BillingEventKind, string> = {
  hold_placed: 'HoldPlacedEventV1',
  hold_rejected: 'HoldRejectedEventV1',
  charge_captured: 'ChargeCapturedEventV1',
  hold_released: 'HoldReleasedEventV1',
};

interface StreamFacts {
  retention: string;
  dedup: string;
  producer: string;
  consumers: string;
}

const STREAM_FACTS: Record<StreamName, StreamFacts> = {
  [STREAMS.work]: { retention: 'work queue: removed once a render worker acknowledges it', dedup: 'Nats-Msg-Id = job_id, or <job_id>.<piece>.<index>.<send> for a piece of a long job', producer: 'jobs (outbox, when billing funded the job, and a long job\'s pieces as they become ready)', consumers: 'render workers (durable render-worker)' },
  [STREAMS.reports]: { retention: 'work queue: removed once the jobs service acknowledges it', dedup: 'Nats-Msg-Id = <job_id>:<kind>:<attempt>', producer: 'render workers', consumers: 'jobs (durable jobs-reports)' },
  [STREAMS.jobEvents]: { retention: 'limits: kept 7 days', dedup: 'Nats-Msg-Id = <job_id>.<kind> (a job has at most one event of each kind); event_id is unique', producer: 'jobs (outbox)', consumers: 'billing (billing-job-events), job-counts (example), any internal service with its own durable consumer' },
  [STREAMS.billingEvents]: { retention: 'limits: kept 7 days', dedup: 'Nats-Msg-Id = <job_id>.<kind>; event_id is unique', producer: 'billing (outbox)', consumers: 'jobs (jobs-billing-events)' },
  [STREAMS.deadLetters]: { retention: 'limits: kept 30 days, deleted by an operator after a replay', dedup: 'Nats-Msg-Id = <stream>.<sequence> of the message it keeps', producer: 'every consumer, on a message it gave up on', consumers: 'the operator CLI (dead-letters list|replay)' },
  [STREAMS.jobUpdates]: { retention: 'limits: a day, at most 1,000 per job', dedup: 'Nats-Msg-Id = <job_id>.<event>.update (state) or <job_id>.<attempt>.<stage>.<progress> (progress)', producer: 'jobs (state, outbox) and render workers (progress)', consumers: 'the gateway, reading one job by sequence (STREAM.MSG.GET next_by_subj)' },
};

const GUARANTEES = [
  'Every message is JSON (UTF-8) and versioned: a type ends in V<n>, `version` says n; additive changes keep the version, anything else is a new type on a new subject.',
  'Delivery is at least once. Consumers deduplicate: events by `event_id` (or the Nats-Msg-Id, see each channel), reports and work by job and attempt.',
  'Events are written to the producer\'s outbox in the transaction of the change they announce, so none is lost and none contradicts the stored state.',
  'Order: a stream keeps the order it received messages in, and a single consumer reading one at a time (libs/job-events) sees them so. Events of one job are published in commit order by one relay; with several relays running, two events of one job may swap, so use the state they carry, not their arrival order. Updates of one job (vj.updates.job.v1.<job_id>) are ordered by their stream sequence.',
  'Core NATS request/reply subjects (vj.rpc.*, vj.health.*) are private between services and not part of this contract.',
].join('\n\n');

type Json = Record<string, unknown>;

function payloadSchemas(typeNames: string[]): Record<string, Json> {
  const generator = createGenerator({
    path: join(__dirname, 'message-types.ts'),
    tsconfig: join(__dirname, '..', '..', 'tsconfig.json'),
    skipTypeCheck: true,
    expose: 'export',
    topRef: true,
    additionalProperties: false,
    jsDoc: 'none',
  });
  const schemas: Record<string, Json> = {};
  for (const name of typeNames) {
    const { definitions = {} } = generator.createSchema(name) as { definitions?: Record<string, Json> };
    Object.assign(schemas, definitions);
  }
  // Component names allow [A-Za-z0-9._-] only: a generic's instance (Foo<"bar">) becomes Foo_bar.
  let text = JSON.stringify(schemas);
  for (const name of Object.keys(schemas)) {
    const safe = componentName(name);
    if (safe === name) continue;
    text = text.split(JSON.stringify(name)).join(JSON.stringify(safe)).split(`#/definitions/${encodeURIComponent(name)}"`).join(`#/definitions/${safe}"`);
  }
  return JSON.parse(text.replace(/"#\/definitions\//g, '"#/components/schemas/')) as Record<string, Json>;
}

function componentName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '');
}

interface ChannelSpec {
  id: string;
  address: string;
  stream: StreamName;
  payload: string;
  title: string;
  parameters?: Json;
}

function channels(): ChannelSpec[] {
  return [
    ...JOB_TYPES.map((type) => ({ id: `work.${type}`, address: subjects.work(type), stream: STREAMS.work, payload: WORK_TYPES[type], title: `${type} work, for a render worker` })),
    ...WORK_PIECES.map((piece) => ({ id: `work.${PIECED_JOB_TYPE}.${piece}`, address: subjects.workPiece(piece), stream: STREAMS.work, payload: WORK_PIECE_TYPES[piece], title: `a long ${PIECED_JOB_TYPE}'s ${piece}, for a render worker` })),
    ...JOB_REPORT_KINDS.map((kind) => ({ id: `reports.${kind}`, address: subjects.report(kind), stream: STREAMS.reports, payload: REPORT_TYPES[kind], title: `a render worker's ${kind} report` })),
    ...JOB_EVENT_KINDS.map((kind) => ({ id: `job-events.${kind}`, address: subjects.jobEvent(kind), stream: STREAMS.jobEvents, payload: JOB_EVENT_TYPES[kind], title: `job ${kind}` })),
    ...BILLING_EVENT_KINDS.map((kind) => ({ id: `billing-events.${kind}`, address: subjects.billingEvent(kind), stream: STREAMS.billingEvents, payload: BILLING_EVENT_TYPES[kind], title: `billing ${kind}` })),
    {
      id: 'job-updates',
      address: subjects.jobUpdate('{job_id}'),
      stream: STREAMS.jobUpdates,
      payload: 'JobUpdateV1',
      title: "one job's state changes and progress",
      parameters: { job_id: { description: 'the job (uuid)' } },
    },
    {
      id: 'dead-letters',
      address: subjects.deadLetter('{consumer}' as never),
      stream: STREAMS.deadLetters,
      payload: 'DeadLetterRecordV1',
      title: 'a message a consumer gave up on',
      parameters: { consumer: { enum: Object.values(CONSUMERS), description: 'the durable consumer that gave up' } },
    },
  ];
}

export function asyncApiDocument(version: string): Json {
  const specs = channels();
  const schemas = payloadSchemas([...new Set(specs.map((spec) => spec.payload))]);
  const channelObjects: Json = {};
  const operations: Json = {};
  const messages: Json = {};
  for (const spec of specs) {
    const facts = STREAM_FACTS[spec.stream];
    messages[spec.payload] = { name: spec.payload, title: spec.payload, contentType: 'application/json', payload: { $ref: `#/components/schemas/${spec.payload}` } };
    channelObjects[spec.id] = {
      address: spec.address,
      title: spec.title,
      description: `Stream ${spec.stream} (${facts.retention}). Published by ${facts.producer}; read by ${facts.consumers}. Deduplication: ${facts.dedup}.`,
      messages: { [spec.payload]: { $ref: `#/components/messages/${spec.payload}` } },
      ...(spec.parameters && { parameters: spec.parameters }),
    };
    operations[`receive.${spec.id}`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${spec.id}` },
      summary: `Receive ${spec.title} (${spec.payload}).`,
      messages: [{ $ref: `#/channels/${spec.id}/messages/${spec.payload}` }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: { title: 'Video jobs platform: internal events', version, description: GUARANTEES },
    defaultContentType: 'application/json',
    servers: { nats: { host: 'nats:4222', protocol: 'nats', description: 'NATS JetStream; each service and internal consumer has its own user (deploy/nats/nats.conf)' } },
    channels: channelObjects,
    operations,
    components: { messages, schemas },
  };
}
