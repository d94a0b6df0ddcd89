import { ApiPropertyOptional } from '@nestjs/swagger';
import { JOB_STATUSES, JOB_TYPES, type JobStatus, type JobType } from '@vj/contracts';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from './page.query';

export class ListJobsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: JOB_TYPES })
  @IsOptional()
  @IsIn(JOB_TYPES)
  type?: JobType;

  @ApiPropertyOptional({ enum: JOB_STATUSES })
  @IsOptional()
  @IsIn(JOB_STATUSES)
  status?: JobStatus;
}
