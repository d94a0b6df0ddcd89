import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ALL_SCHEMAS } from '@vj/contracts';

// The contracts' schemas use bare $ref ids (Ajv); OpenAPI wants component paths.
function toComponent(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toComponent);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id') continue;
    out[key] = key === '$ref' && typeof value === 'string' && !value.startsWith('#') ? `#/components/schemas/${value}` : toComponent(value);
  }
  return out;
}

export function contractSchemaComponents(): Record<string, unknown> {
  return Object.fromEntries(ALL_SCHEMAS.map((schema) => [schema.$id, toComponent(schema)]));
}

// Swagger UI at /docs, the document at /docs-json. OpenAPI 3.1 because the contracts' schemas use
// JSON Schema features 3.0 lacks (type arrays, if/then).
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const options = new DocumentBuilder()
    .setTitle('Video jobs API')
    .setDescription('Background removal and audio cleaning of videos, as asynchronous jobs.')
    .setVersion('1')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key' })
    .build();
  const document = SwaggerModule.createDocument(app, options);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...(contractSchemaComponents() as NonNullable<OpenAPIObject['components']>['schemas']) },
  };
  SwaggerModule.setup('docs', app, document);
  return document;
}
