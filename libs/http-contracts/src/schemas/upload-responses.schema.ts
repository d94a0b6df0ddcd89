// Uploads (decision 0099): one presigned PUT, or a multipart upload whose parts are PUT to URLs signed
// for each one, listed back to resume, then completed.

// S3 numbers parts 1 to 10,000.
const partNumber = { type: 'integer', minimum: 1, maximum: 10000 } as const;

const partsLayout = {
  type: 'object',
  additionalProperties: false,
  required: ['part_size', 'count'],
  description: 'every part is part_size bytes but the last, which holds the rest; parts are numbered 1 to count',
  properties: {
    part_size: { type: 'integer', minimum: 1 },
    count: { type: 'integer', minimum: 1, maximum: 10000 },
  },
} as const;

// POST /v1/uploads: upload_url for one PUT, or parts for a multipart upload; never both.
export const uploadSchema = {
  $id: 'Upload',
  type: 'object',
  additionalProperties: false,
  required: ['upload_id', 'video_url', 'expires_at'],
  oneOf: [{ required: ['upload_url'] }, { required: ['parts'] }],
  properties: {
    upload_id: { type: 'string', format: 'uuid' },
    upload_url: { type: 'string', format: 'uri' },
    parts: partsLayout,
    video_url: { type: 'string' },
    expires_at: { type: 'string', format: 'date-time', description: 'when upload_url expires; for a multipart upload, when it is aborted unless completed' },
  },
} as const;

// POST /v1/uploads/{upload_id}/parts
export const uploadPartUrlsSchema = {
  $id: 'UploadPartUrls',
  type: 'object',
  additionalProperties: false,
  required: ['parts', 'expires_at'],
  properties: {
    parts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['part_number', 'size', 'url'],
        properties: {
          part_number: partNumber,
          size: { type: 'integer', minimum: 1, description: 'the exact number of bytes the PUT must carry' },
          url: { type: 'string', format: 'uri' },
        },
      },
    },
    expires_at: { type: 'string', format: 'date-time' },
  },
} as const;

// GET /v1/uploads/{upload_id}, and what complete answers.
export const uploadStateSchema = {
  $id: 'UploadState',
  type: 'object',
  additionalProperties: false,
  required: ['upload_id', 'video_url', 'file_name', 'content_type', 'file_size', 'status', 'parts', 'parts_uploaded', 'created_at', 'expires_at'],
  properties: {
    upload_id: { type: 'string', format: 'uuid' },
    video_url: { type: 'string' },
    file_name: { type: 'string' },
    content_type: { type: 'string' },
    file_size: { type: 'integer', minimum: 1 },
    status: { type: 'string', enum: ['pending', 'complete'], description: 'complete once the file is stored whole: a job may then use video_url' },
    parts: { oneOf: [partsLayout, { type: 'null' }], description: 'null for an upload by one PUT' },
    parts_uploaded: {
      type: 'array',
      description: 'the parts stored so far, by part number: what a client resumes from (empty once complete, and for one PUT)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['part_number', 'size', 'etag'],
        properties: {
          part_number: partNumber,
          size: { type: 'integer', minimum: 0 },
          etag: { type: 'string' },
        },
      },
    },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time', description: 'when the upload is deleted (UPLOAD_RETENTION_HOURS after it was declared)' },
  },
} as const;
