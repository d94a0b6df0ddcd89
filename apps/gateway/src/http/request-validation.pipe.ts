import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { ApiError, type RequestErrorDetail } from './api-error';
import { validationDetails } from './validation-details';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// No body property of the API accepts null, but class-validator's @IsOptional lets null through as
// if absent; null is a wrong type, not a request for the default.
function nullDetails(body: Record<string, unknown>): RequestErrorDetail[] {
  return Object.keys(body)
    .filter((field) => body[field] === null)
    .map((field) => ({ type: 'invalid_value', field, message: `${field} must not be null` }));
}

// JSON.parse makes "__proto__" an own property; class-transformer skips it and these names, so the
// whitelist never sees them. They are unknown properties like any other (and never reach an object).
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function prototypeKeyDetails(value: unknown, parent = ''): RequestErrorDetail[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => {
    const field = parent ? `${parent}.${key}` : key;
    if (PROTOTYPE_KEYS.has(key)) return [{ type: 'unknown_property', field, message: `${field} is not a known property` }];
    return prototypeKeyDetails((value as Record<string, unknown>)[key], field);
  });
}

// Bodies and queries are checked against the contracts' DTOs: unknown properties and bad values are
// 422 with one detail per property; a body that is not a JSON object is 400.
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => ApiError.invalid('request validation failed', validationDetails(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return super.transform(value, metadata);
    if (!isPlainObject(value)) throw ApiError.malformed('request body must be a JSON object (Content-Type: application/json)');
    const nulls = [...prototypeKeyDetails(value), ...nullDetails(value)];
    let failure: ApiError | undefined;
    try {
      const transformed = await super.transform(value, metadata);
      if (!nulls.length) return transformed;
    } catch (error) {
      if (!(error instanceof ApiError) || !nulls.length) throw error;
      failure = error;
    }
    const reported = failure?.details ?? [];
    const unreported = nulls.filter((detail) => !reported.some((known) => known.field === detail.field));
    throw ApiError.invalid('request validation failed', [...reported, ...unreported]);
  }
}
