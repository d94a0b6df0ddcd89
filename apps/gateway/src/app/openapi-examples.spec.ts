import { CreateCleanAudioVideoDto, CreateUploadDto, CreateVideoBackgroundRemovalDto, CreateWebhookEndpointDto, RotateWebhookSecretDto, schemaViolations, type SchemaId } from '@vj/http-contracts';
import { RequestValidationPipe } from '../http/request-validation.pipe';
import { REQUEST_EXAMPLES, RESPONSE_EXAMPLES } from './openapi-examples';

const REQUEST_TYPES: Record<string, new () => object> = {
  CreateCleanAudioVideoJobRequest: CreateCleanAudioVideoDto,
  CreateVideoBackgroundRemovalJobRequest: CreateVideoBackgroundRemovalDto,
  CreateUploadRequest: CreateUploadDto,
  CreateWebhookEndpointRequest: CreateWebhookEndpointDto,
  RotateWebhookSecretRequest: RotateWebhookSecretDto,
};

describe('OpenAPI examples', () => {
  it.each(Object.entries(RESPONSE_EXAMPLES))('%s matches its JSON Schema', (name, example) => {
    expect(schemaViolations(name as SchemaId, example)).toEqual([]);
  });

  it('puts a job object of its type in the job list example', () => {
    const { data } = RESPONSE_EXAMPLES.JobList as { data: { job: unknown }[] };
    for (const { job } of data) expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
  });

  it.each(Object.entries(REQUEST_EXAMPLES))('%s passes the request validation', async (name, example) => {
    const metatype = REQUEST_TYPES[name];
    expect(metatype).toBeDefined();
    await expect(new RequestValidationPipe().transform(example, { type: 'body', metatype })).resolves.toBeDefined();
  });
});
