import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { JOB_STATUSES, type JobStatus } from '../job/job-status';
import { JOB_TYPES, type JobType } from '../job/job-type';
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
