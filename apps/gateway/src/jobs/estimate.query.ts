import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn } from 'class-validator';
import { JOB_TYPES, type JobType } from '@vj/contracts';

export class EstimateQuery {
  @ApiProperty({ enum: JOB_TYPES, description: 'the job type to price; the body is the body of that create endpoint' })
  @IsDefined()
  @IsIn(JOB_TYPES)
  type!: JobType;
}
