import { CONSUMERS, JOB_TYPES, subjects, type JobType } from '@vj/contracts';
import type { DeadLetterHandlers, HandlerTable, MessageHandler } from '@vj/messaging';
import type { FailDeadLetteredJobUseCase } from '../processing/fail-dead-lettered-job.use-case';
import type { ProcessJobUseCase } from '../processing/process-job.use-case';
import { parseWorkPayload } from './work-payload';

// The NATS door of the job processor: one handler per job type's work subject.
export function workHandlers(processJob: ProcessJobUseCase): HandlerTable {
  const handle =
    (jobType: JobType): MessageHandler =>
    async (payload, ctx) => {
      await processJob.execute(parseWorkPayload(jobType, payload), { attempt: ctx.attempt, isLastDelivery: ctx.isLastAttempt, signal: ctx.signal });
    };
  return Object.fromEntries(JOB_TYPES.map((jobType) => [subjects.work(jobType), handle(jobType)]));
}

// The work consumer's dead letters (the last delivery failed): the job is failed.
export function workDeadLetterHandlers(failDeadLettered: FailDeadLetteredJobUseCase): DeadLetterHandlers {
  return { [CONSUMERS.renderWorker]: (letter) => failDeadLettered.execute(letter) };
}
