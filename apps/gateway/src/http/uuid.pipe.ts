import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { ApiError } from './api-error';

// An id that is not a UUID names nothing: 404, like any other unknown id.
@Injectable()
export class UuidPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUUID(value)) throw ApiError.notFound(`nothing found for ${JSON.stringify(value.slice(0, 64))}`);
    return value.toLowerCase();
  }
}
