import { Module, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { pingHealth } from '@vj/messaging';
import { connect, type NatsConnection } from 'nats';
import { bootNatsService } from './boot-nats-service';

// The bootstrap against a real nats-server: what it opens, what health answers, and the stop's order.
describe('bootNatsService', () => {
  let nats: LocalNatsServer;
  let probe: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    probe = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    await probe?.drain();
    await nats?.stop();
  });

  const config = () => ({ NATS_URL: nats.url, LOG_LEVEL: 'fatal' });

  it('answers health once started, then stops in order: unready, beforeStop, the module, NATS', async () => {
    const steps: string[] = [];
    let given: NatsConnection | undefined;
    class Recorder implements OnApplicationBootstrap, BeforeApplicationShutdown {
      onApplicationBootstrap(): void {
        steps.push('module started');
      }
      beforeApplicationShutdown(): void {
        steps.push(`module stopping, NATS open: ${!given?.isClosed()}`);
      }
    }
    @Module({ providers: [Recorder] })
    class RecorderModule {}
    const service = await bootNatsService({
      name: 'billing',
      config: config(),
      module: (nc) => {
        given = nc;
        return { module: RecorderModule };
      },
      readyLine: () => 'ready',
      beforeStop: async (_app, reason) => {
        steps.push(`before stop: ${reason}, health: ${(await pingHealth(probe, 'billing', 200))?.ready ?? 'none'}`);
      },
    });
    // The health subscription reaches the server with the connection's next flush.
    await given?.flush();
    expect((await pingHealth(probe, 'billing'))?.ready).toBe(true);
    await service.stop('test over');
    expect(steps).toEqual(['module started', 'before stop: test over, health: none', 'module stopping, NATS open: true']);
    expect(given?.isClosed()).toBe(true);
  });

  it('closes what it opened when the module cannot be made, and the failure goes on', async () => {
    let given: NatsConnection | undefined;
    const failing = bootNatsService({
      name: 'billing',
      config: config(),
      module: (nc) => {
        given = nc;
        throw new Error('no module');
      },
      readyLine: () => 'ready',
    });
    await expect(failing).rejects.toThrow('no module');
    expect(given?.isClosed()).toBe(true);
  });
});
