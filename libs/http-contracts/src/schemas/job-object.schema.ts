import { CLEAN_AUDIO_VIDEO_TYPE, INT32_MAX, JOB_ERROR_CODES, JOB_STATUSES, jobTypeDefinition, VIDEO_BACKGROUND_REMOVAL_TYPE, type JobType, type JobTypeDefinition } from '@vj/contracts';

// JSON Schemas of the public job resources (docs/spec/video-jobs-resources.md section 2).
// "No properties other than those listed" becomes additionalProperties: false on every object.


export const fileObjectSchema = {
  $id: 'FileObject',
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', minLength: 1 },
    content_type: { type: 'string' },
    file_name: { type: 'string' },
    file_size: { type: 'integer', minimum: 0 },
  },
} as const;

export const jobErrorSchema = {
  $id: 'JobError',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', enum: [...JOB_ERROR_CODES] },
    message: { type: 'string' },
    details: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'message'],
        properties: {
          type: { type: 'string' },
          message: { type: 'string' },
          field: { type: 'string' },
        },
      },
    },
  },
} as const;

// By what a job type's result holds (JobTypeDefinition.result).
const resultSchemas = {
  files: {
    type: 'object',
    additionalProperties: false,
    required: ['files'],
    properties: { files: { type: ['array', 'null'], items: { $ref: 'FileObject' } } },
  },
  video: {
    type: 'object',
    additionalProperties: false,
    required: ['video'],
    properties: { video: { $ref: 'FileObject' } },
  },
} as const;

const int32 = { type: 'integer', minimum: -2_147_483_648, maximum: INT32_MAX } as const;

// A job type's job object, named by its definition's schema name.
export function jobObjectSchema<Id extends string>(definition: JobTypeDefinition, id: Id = definition.names.schema as Id) {
  return {
    $id: id,
    type: 'object',
    additionalProperties: false,
    required: ['job_id', 'status'],
    properties: {
      job_id: { type: 'string', format: 'uuid' },
      status: { type: 'string', enum: [...JOB_STATUSES] },
      credits_estimated: int32,
      credits_charged: int32,
      result: resultSchemas[definition.result],
      error: { $ref: 'JobError' },
    },
    // Field presence by state (section 3): result only when COMPLETED, error only when FAILED.
    allOf: [
      {
        if: { properties: { status: { const: 'COMPLETED' } } },
        then: { required: ['result'], not: { required: ['error'] } },
      },
      {
        if: { properties: { status: { const: 'FAILED' } } },
        then: { required: ['error'], not: { anyOf: [{ required: ['result'] }, { required: ['credits_charged'] }] } },
      },
      {
        if: { properties: { status: { enum: ['PROCESSING', 'CANCELLED'] } } },
        then: { not: { anyOf: [{ required: ['result'] }, { required: ['error'] }, { required: ['credits_charged'] }] } },
      },
    ],
  } as const;
}

export const videoBackgroundRemovalJobSchema = jobObjectSchema(VIDEO_BACKGROUND_REMOVAL_TYPE, 'VideoBackgroundRemovalJob');
export const cleanAudioVideoJobSchema = jobObjectSchema(CLEAN_AUDIO_VIDEO_TYPE, 'CleanAudioVideoJob');

// The $id of a job type's job object schema.
export function jobSchemaId(type: JobType): string {
  return jobTypeDefinition(type).names.schema;
}
