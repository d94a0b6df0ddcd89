import { schemaViolations } from './schema-validator';

const id = '9b2f0c4e-8f6a-4d47-9a55-3f8e6d1c2b7a';

describe('job object schemas', () => {
  it('accepts a processing job with its estimate', () => {
    expect(schemaViolations('CleanAudioVideoJob', { job_id: id, status: 'PROCESSING', credits_estimated: 12 })).toEqual([]);
  });

  it('accepts a completed clean-audio job with a file object and the charge', () => {
    const job = { job_id: id, status: 'COMPLETED', credits_charged: 10, result: { video: { url: 'https://s3/x', content_type: 'video/mp4', file_name: 'x.mp4', file_size: 10 } } };
    expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
  });

  it('accepts a completed background-removal job whose files are null', () => {
    expect(schemaViolations('VideoBackgroundRemovalJob', { job_id: id, status: 'COMPLETED', result: { files: null } })).toEqual([]);
  });

  it('rejects a property the spec does not list, at every level', () => {
    expect(schemaViolations('CleanAudioVideoJob', { job_id: id, status: 'PROCESSING', created_at: 'x' })).not.toEqual([]);
    const extraInFile = { job_id: id, status: 'COMPLETED', result: { video: { url: 'u', etag: 'x' } } };
    expect(schemaViolations('CleanAudioVideoJob', extraInFile)).not.toEqual([]);
    const extraInError = { job_id: id, status: 'FAILED', error: { code: 'timeout', message: 'm', retry: true } };
    expect(schemaViolations('CleanAudioVideoJob', extraInError)).not.toEqual([]);
  });

  it('rejects a result on a job of the other type', () => {
    expect(schemaViolations('VideoBackgroundRemovalJob', { job_id: id, status: 'COMPLETED', result: { video: { url: 'u' } } })).not.toEqual([]);
  });

  it('requires error on FAILED and forbids it elsewhere', () => {
    expect(schemaViolations('CleanAudioVideoJob', { job_id: id, status: 'FAILED' })).not.toEqual([]);
    expect(schemaViolations('CleanAudioVideoJob', { job_id: id, status: 'FAILED', error: { code: 'invalid_file', message: 'm', details: null } })).toEqual([]);
    expect(schemaViolations('CleanAudioVideoJob', { job_id: id, status: 'PROCESSING', error: { code: 'timeout', message: 'm' } })).not.toEqual([]);
  });

  it('rejects an unknown error code and a non-uuid job_id', () => {
    expect(schemaViolations('CleanAudioVideoJob', { job_id: id, status: 'FAILED', error: { code: 'oops', message: 'm' } })).not.toEqual([]);
    expect(schemaViolations('CleanAudioVideoJob', { job_id: 'abc', status: 'PROCESSING' })).not.toEqual([]);
  });
});
