// JSON Schemas of a COMPLETED job's quality report, GET /v1/{type}/{job_id}/report (decision 0096):
// what the worker measured of its own work, outside the job object.

const decibels = { type: ['number', 'null'] } as const;
const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

// An audio stream; null where silence leaves nothing to measure.
const audioFigures = {
  type: 'object',
  additionalProperties: false,
  required: ['integrated_lufs', 'true_peak_dbtp', 'noise_floor_dbfs'],
  properties: {
    integrated_lufs: { ...decibels, description: 'EBU R128 integrated loudness, LUFS' },
    true_peak_dbtp: { ...decibels, description: 'EBU R128 true peak, dBTP' },
    noise_floor_dbfs: { ...decibels, description: 'the 10th percentile of the 100 ms RMS levels, digital silence left out, dBFS' },
  },
} as const;

export const cleanAudioVideoReportSchema = {
  $id: 'CleanAudioVideoReport',
  type: 'object',
  additionalProperties: false,
  required: ['job_id', 'input', 'output', 'audio_offset_ms', 'picture'],
  properties: {
    job_id: { type: 'string', format: 'uuid' },
    input: { ...audioFigures, description: "the source's audio as uploaded" },
    output: { ...audioFigures, description: 'the delivered audio' },
    audio_offset_ms: {
      type: ['integer', 'null'],
      description:
        "the delivered audio's offset against the source's, cross-correlated over their first 30 s: positive plays later; null where silence, noise, a steady tone or a steady beat tells nothing, and for an export (its source job's report has it)",
    },
    picture: {
      type: 'object',
      additionalProperties: false,
      required: ['identical', 'source_sha256', 'output_sha256'],
      description: "SHA-256 of the source's picture packets as read, and of those written into the delivered file",
      properties: { identical: { type: 'boolean' }, source_sha256: sha256, output_sha256: sha256 },
    },
  },
} as const;

export const videoBackgroundRemovalReportSchema = {
  $id: 'VideoBackgroundRemovalReport',
  type: 'object',
  additionalProperties: false,
  required: ['job_id', 'frames', 'frames_with_person', 'person_frame_share', 'flicker'],
  properties: {
    job_id: { type: 'string', format: 'uuid' },
    frames: { type: 'integer', minimum: 0, description: 'frames matted' },
    frames_with_person: { type: 'integer', minimum: 0, description: 'frames whose matte shows a person (at least 0.1 % of the picture)' },
    person_frame_share: { type: 'number', minimum: 0, maximum: 1 },
    flicker: { type: 'number', minimum: 0, maximum: 1, description: "mean frame-to-frame change of the matte's alpha (0 to 1) where the picture itself stood still" },
  },
} as const;
