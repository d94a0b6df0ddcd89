import { STORED_V1_PAYLOADS } from '@vj/contracts/src/messaging/__fixtures__/stored-v1-payloads';
import { parseWorkPayload } from './work-payload';

describe('stored V1 work messages', () => {
  it('are still accepted for both job types', () => {
    expect(parseWorkPayload('clean-audio-video', structuredClone(STORED_V1_PAYLOADS.workCleanAudio)).job_id).toBe(STORED_V1_PAYLOADS.workCleanAudio.job_id);
    expect(parseWorkPayload('video-background-removal', structuredClone(STORED_V1_PAYLOADS.workBackgroundRemoval)).options).toEqual(STORED_V1_PAYLOADS.workBackgroundRemoval.options);
  });
});
