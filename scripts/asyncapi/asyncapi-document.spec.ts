import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import Ajv from 'ajv';
import { STREAM_SUBJECTS, subjects } from '@vj/contracts';
import { STORED_V1_PAYLOADS } from '../../libs/contracts/src/messaging/__fixtures__/stored-v1-payloads';
import { ASYNCAPI_PATH, asyncApiDocument, RENDER_ASYNCAPI_COMMAND } from './asyncapi-document';

type Doc = {
  channels: Record<string, { address: string; description: string; messages: Record<string, unknown> }>;
  components: { schemas: Record<string, object> };
};

// The event contract for internal consumers (decision 0031): generated from libs/contracts, valid AsyncAPI 3,
// and true to the payloads the services write.
describe('the AsyncAPI document', () => {
  const committed = JSON.parse(readFileSync(ASYNCAPI_PATH, 'utf8')) as Doc & { info: { version: string } };
  const rendered = asyncApiDocument(committed.info.version) as Doc;

  it(`is what scripts/render-asyncapi.ts renders from the contracts (else run: ${RENDER_ASYNCAPI_COMMAND})`, () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(rendered)));
  });

  it('parses as AsyncAPI 3 without an error', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(committed));
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('has a channel for every stream subject, naming its stream', () => {
    const channels = Object.values(committed.channels);
    for (const [stream, patterns] of Object.entries(STREAM_SUBJECTS)) {
      const mine = channels.filter((channel) => channel.description.startsWith(`Stream ${stream} `));
      expect({ stream, channels: mine.length > 0 }).toEqual({ stream, channels: true });
      for (const channel of mine) {
        const prefix = patterns[0].replace(/[>*]$/, '');
        expect(channel.address.startsWith(prefix)).toBe(true);
      }
    }
    expect(channels.map((c) => c.address)).toEqual(expect.arrayContaining([subjects.jobEvent('started'), 'vj.updates.job.v1.{job_id}', 'vj.dead.v1.{consumer}']));
  });

  it('accepts the payloads the first V1 publishers wrote, and refuses one with a property too many', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const [name, schema] of Object.entries(committed.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const check = (type: string, payload: unknown) => {
      const validate = ajv.getSchema(`#/components/schemas/${type}`)!;
      return validate(payload) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    };
    const fixtures: [string, unknown][] = [
      ['CleanAudioVideoWorkV1', STORED_V1_PAYLOADS.workCleanAudio],
      ['VideoBackgroundRemovalWorkV1', STORED_V1_PAYLOADS.workBackgroundRemoval],
      ['JobStartedReportV1', STORED_V1_PAYLOADS.reportStarted],
      ['JobSucceededReportV1', STORED_V1_PAYLOADS.reportSucceeded],
      ['JobFailedReportV1', STORED_V1_PAYLOADS.reportFailed],
      ['JobCreatedEventV1', STORED_V1_PAYLOADS.eventCreated],
      ['JobCompletedEventV1', STORED_V1_PAYLOADS.eventCompleted],
      ['JobFailedEventV1', STORED_V1_PAYLOADS.eventFailed],
      ['JobCancelledEventV1', STORED_V1_PAYLOADS.eventCancelled],
      ['JobPlannedReportV1', STORED_V1_PAYLOADS.reportPlanned],
      ['PlateStoredReportV1', STORED_V1_PAYLOADS.reportPlateStored],
      ['SegmentDoneReportV1', STORED_V1_PAYLOADS.reportSegmentDone],
      ['PlatePassWorkV1', STORED_V1_PAYLOADS.workPass],
      ['SegmentWorkV1', STORED_V1_PAYLOADS.workSegment],
      ['SegmentJoinWorkV1', STORED_V1_PAYLOADS.workJoin],
    ];
    for (const [type, payload] of fixtures) expect({ type, errors: check(type, payload) }).toEqual({ type, errors: [] });
    expect(check('JobCancelledEventV1', { ...STORED_V1_PAYLOADS.eventCancelled, extra: 1 })).not.toEqual([]);
  });
});
