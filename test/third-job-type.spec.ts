import { CLEAN_AUDIO_VIDEO_TYPE, isJobType, JOB_TYPES, jobTypeDefinition, priceOf, registerJobType, type JobType } from '@vj/contracts';
import { jobSchemaId, schemaViolations, type SchemaId } from '@vj/http-contracts';
import { DEFAULT_PRICES, parsePrices } from '../apps/billing/src/pricing/price-list';
import { parseJobBody } from '../apps/gateway/src/jobs/parse-job-body';
import { gatewayJobType, gatewayJobTypes, registerGatewayJobType } from '../apps/gateway/src/jobs/types/gateway-job-types';
import { COPY_VIDEO_TYPE } from './support/third-job-type/copy-video.definition';
import { COPY_VIDEO_GATEWAY } from './support/third-job-type/copy-video.gateway';

// A job type is one registration (decision 0103): a third type that exists only here, registered
// beside the two real ones, is validated, priced and served by what each process derives from the
// registry. The modules above were loaded before the registration, as a service's are not.
const COPY = 'copy-video' as JobType;
const id = '9b2f0c4e-8f6a-4d47-9a55-3f8e6d1c2b7a';

describe('the job-type registry', () => {
  it('holds the built-in types in the order the API documents them', () => {
    expect(JOB_TYPES).toEqual(['video-background-removal', 'clean-audio-video']);
    expect(jobTypeDefinition('clean-audio-video')).toBe(CLEAN_AUDIO_VIDEO_TYPE);
    expect(isJobType(COPY)).toBe(false);
  });

  it('adds a registered type to the same list, so what was built from it knows the type', () => {
    const before = JOB_TYPES;
    registerJobType(COPY_VIDEO_TYPE);
    registerGatewayJobType(COPY_VIDEO_GATEWAY);
    expect(before).toEqual(['video-background-removal', 'clean-audio-video', COPY]);
    expect(isJobType(COPY)).toBe(true);
    expect(jobTypeDefinition(COPY)).toBe(COPY_VIDEO_TYPE);
  });

  it('refuses a type twice, and a name unsafe as a path segment or subject token', () => {
    expect(() => registerJobType(CLEAN_AUDIO_VIDEO_TYPE)).toThrow(/registered already/);
    for (const type of ['Copy', 'copy.video', 'copy video', '-copy', 'copy-', 'copy--video', '', 'a>', 'a*']) {
      expect(() => registerJobType({ ...COPY_VIDEO_TYPE, type })).toThrow(/lowercase-hyphenated/);
    }
    expect(() => jobTypeDefinition('paint-video' as JobType)).toThrow(/unknown job type paint-video/);
  });

  it('gives the registered type its job object schema, with the result its definition names', () => {
    const schema = jobSchemaId(COPY) as SchemaId;
    expect(schema).toBe('CopyVideoJob');
    const file = { url: 'https://s3/x', content_type: 'video/mp4', file_name: 'x.mp4', file_size: 10 };
    expect(schemaViolations(schema, { job_id: id, status: 'COMPLETED', credits_charged: 1, result: { video: file } })).toEqual([]);
    expect(schemaViolations(schema, { job_id: id, status: 'COMPLETED', result: { files: [file] } })).not.toEqual([]);
    expect(schemaViolations(schema, { job_id: id, status: 'PROCESSING', extra: 1 })).not.toEqual([]);
  });

  it('prices it from its own line, and a price list must name it', () => {
    const prices = parsePrices({ ...DEFAULT_PRICES, [COPY]: COPY_VIDEO_TYPE.price });
    expect(priceOf(prices[COPY], { faststart: true }, 10)).toEqual({ credits: 6, billed_seconds: 10 });
    expect(() => parsePrices(DEFAULT_PRICES)).toThrow(/copy-video: missing/);
    expect(() => parsePrices({ ...DEFAULT_PRICES, [COPY]: { ...COPY_VIDEO_TYPE.price, option_multipliers: { strength: 2 } } })).toThrow(/"strength" is not a boolean option of copy-video/);
  });

  it('gives the gateway its routes and its body, with the defaults applied', async () => {
    expect(gatewayJobTypes().map((part) => part.names.type)).toEqual(['video-background-removal', 'clean-audio-video', COPY]);
    expect(gatewayJobType(COPY).names).toMatchObject({ schema: 'CopyVideoJob', operation: 'CopyVideo' });
    expect(await parseJobBody(COPY, { video_url: 'https://media.test/a.mp4' })).toEqual({ videoUrl: 'https://media.test/a.mp4', options: { faststart: true } });
    await expect(parseJobBody(COPY, { video_url: 'https://media.test/a.mp4', faststart: 'yes' })).rejects.toThrow();
  });
});
