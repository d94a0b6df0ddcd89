import { Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { ApiError } from '../http/api-error';

// A job id that is not a UUID names no job: 404, like any other unknown id.
@Injectable()
export class JobIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUUID(value)) throw ApiError.notFound('job not found');
    return value.toLowerCase();
  }
}
