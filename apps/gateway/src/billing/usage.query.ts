import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsIn, IsOptional } from 'class-validator';
import { USAGE_GROUPS, type UsageGroup } from '@vj/contracts';
import { parseIsoInstant } from './iso-instant';

const INSTANT = 'an ISO 8601 date (2025-01-31, midnight UTC) or date-time (2025-01-31T12:00:00Z; no offset means UTC)';

// A valid string becomes its Date; anything else stays as it came, for IsDate to refuse with the field's name.
const toInstant = ({ value }: { value: unknown }) => (typeof value === 'string' ? (parseIsoInstant(value) ?? value) : value);

export class UsageQuery {
  @ApiPropertyOptional({ type: 'string', description: `start, inclusive: ${INSTANT}; default: to minus 30 days` })
  @IsOptional()
  @Transform(toInstant)
  @IsDate({ message: `from must be ${INSTANT}` })
  from?: Date;

  @ApiPropertyOptional({ type: 'string', description: `end, exclusive: ${INSTANT}; default: now` })
  @IsOptional()
  @Transform(toInstant)
  @IsDate({ message: `to must be ${INSTANT}` })
  to?: Date;

  @ApiPropertyOptional({ enum: USAGE_GROUPS, default: 'day', description: 'one row per UTC day, or per job type' })
  @IsOptional()
  @IsIn(USAGE_GROUPS)
  group_by?: UsageGroup;
}
