import { CONSUMERS, JOB_TYPES, subjects, type JobType } from '@vj/contracts';
import { PermanentMessageError, type DeadLetterHandlers, type HandlerTable, type MessageHandler } from '@vj/messaging';
import type { FailDeadLetteredJobUseCase } from '../processing/fail-dead-lettered-job.use-case';
import type { ProcessJobUseCase } from '../processing/process-job.use-case';
import { parseWorkPayload } from './work-payload';

// The NATS door of the job processor: one handler per job type's work subject. A message it cannot
// use fails the job it names before it is terminated.
export function workHandlers(processJob: ProcessJobUseCase, failDeadLettered: FailDeadLetteredJobUseCase): HandlerTable {
  const handle =
    (jobType: JobType): MessageHandler =>
    async (payload, ctx) => {
      let work;
      try {
        work = parseWorkPayload(jobType, payload);
      } catch (error) {
        if (error instanceof PermanentMessageError) await failDeadLettered.failUnusable(payload, error.message, ctx.attempt);
        throw error;
      }
      await processJob.execute(work, { attempt: ctx.attempt, isLastDelivery: ctx.isLastAttempt, signal: ctx.signal });
    };
  return Object.fromEntries(JOB_TYPES.map((jobType) => [subjects.work(jobType), handle(jobType)]));
}

// The work consumer's dead letters (the last delivery failed): the job is failed.
export function workDeadLetterHandlers(failDeadLettered: FailDeadLetteredJobUseCase): DeadLetterHandlers {
  return { [CONSUMERS.renderWorker]: (letter) => failDeadLettered.execute(letter) };
}
