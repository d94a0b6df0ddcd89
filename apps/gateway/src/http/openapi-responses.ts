import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { SchemaId } from '@vj/contracts';

// Responses reference the contracts' JSON Schemas, registered as OpenAPI components (app/openapi.ts).
export function schemaRef(id: SchemaId): { $ref: string } {
  return { $ref: `#/components/schemas/${id}` };
}

export function ApiBody(status: number, id: SchemaId, description: string) {
  return ApiResponse({ status, description, schema: schemaRef(id) });
}

export function ApiRequestErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: 'request error', schema: schemaRef('RequestError') })),
  );
}
