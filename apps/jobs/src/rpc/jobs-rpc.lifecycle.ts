import { isDatabaseOutage } from '@vj/database';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { serveJobsRpc, type RpcService } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { JobsService } from '../jobs/jobs.service';
import type { DeleteJobUseCase } from '../retention/delete-job.use-case';

// Serves vj.rpc.jobs.v1.* (create/replay/get/list/cancel/cancel_account/delete) for the gateway once the app is up.
export class JobsRpcLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private service: RpcService | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly jobs: JobsService,
    private readonly deleteJob: DeleteJobUseCase,
  ) {}

  onApplicationBootstrap(): void {
    this.service = serveJobsRpc(this.nc, {
      create: (request) => this.jobs.create(request),
      replay: (request) => this.jobs.replay(request),
      get: (request) => this.jobs.get(request),
      list: (request) => this.jobs.list(request),
      cancel: (request) => this.jobs.cancel(request),
      cancel_account: (request) => this.jobs.cancelAccountJobs(request),
      delete: (request) => this.deleteJob.execute(request),
    }, { isOutage: isDatabaseOutage });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.service?.close();
  }
}
