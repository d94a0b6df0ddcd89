import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { SchemaId } from '@vj/http-contracts';
import { schemaRef } from '../http/openapi-responses';
import { MAX_WAIT_SECONDS } from './prefer-wait';

const PREFER = {
  name: 'Prefer',
  required: false,
  description: `wait=N (RFC 7240, N up to ${MAX_WAIT_SECONDS}; more is taken as ${MAX_WAIT_SECONDS}): hold the answer until the job is final or N seconds pass`,
};
const PREFERENCE_APPLIED = { 'Preference-Applied': { description: 'wait=N when the answer waited for the job (RFC 7240)', schema: { type: 'string' } } };

// A create with Prefer: wait=N answers the final job with 200 when it ends within N seconds.
export function ApiCreateWait(job: SchemaId) {
  return applyDecorators(
    ApiHeader(PREFER),
    ApiResponse({ status: 200, description: 'Prefer: wait=N and the job ended within N seconds: the final job, as GET returns it', schema: schemaRef(job), headers: PREFERENCE_APPLIED }),
  );
}

export function ApiReadWait(job: SchemaId) {
  return applyDecorators(
    ApiHeader(PREFER),
    ApiResponse({ status: 200, description: 'the job; with Prefer: wait=N, once final or after N seconds', schema: schemaRef(job), headers: PREFERENCE_APPLIED }),
  );
}

const STREAM_DESCRIPTION = [
  'text/event-stream (Server-Sent Events) of the job, ending with its final object.',
  'Events: job.started, job.completed, job.failed and job.cancelled carry the job object as GET returns it;',
  'job.progress carries {job_id, stage (fetching, probing, processing, uploading), progress (0 to 1)}.',
  'Each event has an id; reconnecting with Last-Event-ID resumes after it. A comment line comes while nothing happens.',
  'The stream closes after the final event.',
].join(' ');

export function ApiJobEventStream() {
  return applyDecorators(
    ApiProduces('text/event-stream'),
    ApiHeader({ name: 'Last-Event-ID', required: false, description: 'the id of the last event received: the stream resumes after it' }),
    ApiResponse({ status: 200, description: STREAM_DESCRIPTION, content: { 'text/event-stream': { schema: { type: 'string' } } } }),
    ApiResponse({ status: 204, description: 'Last-Event-ID names the final event or a later one: nothing more will come (an EventSource stops reconnecting)' }),
  );
}
