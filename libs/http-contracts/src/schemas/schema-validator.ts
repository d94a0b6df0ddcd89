import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { balanceSchema, estimateSchema, ledgerPageSchema, usageReportSchema } from './billing-responses.schema';
import { healthSchema, jobListSchema, requestErrorSchema } from './api-responses.schema';
import { JOB_TYPES, jobTypeDefinition } from '@vj/contracts';
import { cleanAudioVideoJobSchema, fileObjectSchema, jobErrorSchema, jobObjectSchema, videoBackgroundRemovalJobSchema } from './job-object.schema';
import { cleanAudioVideoReportSchema, videoBackgroundRemovalReportSchema } from './report-responses.schema';
import { uploadPartUrlsSchema, uploadSchema, uploadStateSchema } from './upload-responses.schema';
import {
  webhookDefaultSecretSchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookPayloadSchema,
} from './webhook-responses.schema';

export const ALL_SCHEMAS = [
  fileObjectSchema,
  jobErrorSchema,
  videoBackgroundRemovalJobSchema,
  cleanAudioVideoJobSchema,
  videoBackgroundRemovalReportSchema,
  cleanAudioVideoReportSchema,
  requestErrorSchema,
  jobListSchema,
  uploadSchema,
  uploadPartUrlsSchema,
  uploadStateSchema,
  healthSchema,
  estimateSchema,
  balanceSchema,
  usageReportSchema,
  ledgerPageSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookEndpointListSchema,
  webhookDeliverySchema,
  webhookDeliveryPageSchema,
  webhookDefaultSecretSchema,
  webhookPayloadSchema,
] as const;

export type SchemaId = (typeof ALL_SCHEMAS)[number]['$id'];

let ajv: Ajv | undefined;

function instance(): Ajv {
  if (!ajv) {
    // strictRequired is off: the state rules say "must not have" with `not: { required }`.
    ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    for (const schema of ALL_SCHEMAS) ajv.addSchema(schema);
    // The job objects of types registered besides the built-in ones (registerJobType).
    for (const type of JOB_TYPES) {
      const definition = jobTypeDefinition(type);
      if (!ajv.getSchema(definition.names.schema)) ajv.addSchema(jobObjectSchema(definition));
    }
  }
  return ajv;
}

export function schemaValidator(id: SchemaId): ValidateFunction {
  const validate = instance().getSchema(id);
  if (!validate) throw new Error(`unknown schema ${id}`);
  return validate;
}

// Returns a readable list of violations, empty when the body matches.
export function schemaViolations(id: SchemaId, body: unknown): string[] {
  const validate = schemaValidator(id);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
