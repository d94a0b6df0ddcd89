import { Logger } from '@nestjs/common';
import type { DeleteJobReplyV1, DeleteJobRequestV1 } from '@vj/contracts';
import type { JobsService } from '../jobs/jobs.service';
import type { JobFilesPurger } from './job-files-purger';

// DELETE /v1/{type}/{job_id} (decision 0024): the job is marked deleted (it reads as not found from
// then on), then its files are deleted at once. If the bucket cannot be reached the answer is still
// yes: the job is deleted, and the retention sweeper deletes the files on its next pass.
export class DeleteJobUseCase {
  private readonly logger = new Logger(DeleteJobUseCase.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly purger: JobFilesPurger,
  ) {}

  async execute(request: DeleteJobRequestV1): Promise<DeleteJobReplyV1> {
    const job = await this.jobs.markDeleted(request);
    if (!job.files_purged_at || (job.input.kind === 'upload' && !job.input_purged_at)) {
      await this.purger.purgeAll(job).catch((error: unknown) => this.logger.warn(`job ${job.job_id}: files left for the sweeper: ${String(error)}`));
    }
    return { deleted_at: (job.deleted_at ?? new Date()).toISOString() };
  }
}
