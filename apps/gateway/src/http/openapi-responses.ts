import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { SchemaId } from '@vj/http-contracts';

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

// Every operation's id (what generated clients name their methods) and its one-line summary. A public
// operation says so with an empty security list, so no operation is left without one.
export function Operation(operationId: string, summary: string, description?: string, options: { public?: boolean } = {}) {
  return ApiOperation({ operationId, summary, ...(description && { description }), ...(options.public && { security: [] }) });
}
