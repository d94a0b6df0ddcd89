import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { serveMediaRpc, type RpcService } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { DurationProbe } from '../estimate/duration-probe';

// Serves vj.rpc.media.v1.probe once the app is up: any one worker of the queue group answers the
// gateway's duration question for a quote.
export class MediaRpcLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private service: RpcService | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly durationProbe: DurationProbe,
  ) {}

  onApplicationBootstrap(): void {
    this.service = serveMediaRpc(this.nc, { probe: (request) => this.durationProbe.reply(request) });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.service?.close();
  }
}
