import { Controller, UseFilters } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { CONSUMERS, subjects, type JobType } from '@vj/contracts';
import { deadLetterPattern, JetStreamContext, KeepErrorsFilter, type DeadLetter } from '@vj/messaging';
import { FailDeadLetteredJobUseCase } from '../processing/fail-dead-lettered-job.use-case';
import { ProcessJobUseCase } from '../processing/process-job.use-case';

import { parseWorkPayload } from './work-payload';

// The NATS door of the job processor: one handler per work subject, plus the consumer's dead letters.
@Controller()
@UseFilters(KeepErrorsFilter)
export class WorkController {
  constructor(
    private readonly processJob: ProcessJobUseCase,
    private readonly failDeadLettered: FailDeadLetteredJobUseCase,
  ) {}

  @EventPattern(subjects.work('clean-audio-video'))
  cleanAudioVideo(@Payload() payload: unknown, @Ctx() ctx: JetStreamContext): Promise<void> {
    return this.handle('clean-audio-video', payload, ctx);
  }

  @EventPattern(subjects.work('video-background-removal'))
  videoBackgroundRemoval(@Payload() payload: unknown, @Ctx() ctx: JetStreamContext): Promise<void> {
    return this.handle('video-background-removal', payload, ctx);
  }

  @EventPattern(deadLetterPattern(CONSUMERS.renderWorker))
  deadLetter(@Payload() letter: DeadLetter): Promise<void> {
    return this.failDeadLettered.execute(letter);
  }

  private async handle(jobType: JobType, payload: unknown, ctx: JetStreamContext): Promise<void> {
    const job = parseWorkPayload(jobType, payload);
    await this.processJob.execute(job, { attempt: ctx.attempt, isLastDelivery: ctx.isLastAttempt, signal: ctx.signal });
  }
}
