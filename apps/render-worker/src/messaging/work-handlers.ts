import { CONSUMERS, JOB_TYPES, subjects, WORK_PIECES, type JobType, type WorkPiece } from '@vj/contracts';
import { PermanentMessageError, type DeadLetterHandlers, type HandlerTable, type MessageHandler } from '@vj/messaging';
import type { FailDeadLetteredJobUseCase } from '../processing/fail-dead-lettered-job.use-case';
import { parsePieceWork } from '../pieces/piece-work';
import type { RunPieceUseCase } from '../pieces/run-piece.use-case';
import type { ProcessJobUseCase } from '../processing/process-job.use-case';
import { parseWorkPayload } from './work-payload';

// The NATS door of the job processor: one handler per job type's work subject, and one per piece of a
// long job (decision 0101). A message it cannot use fails the job it names before it is terminated.
export function workHandlers(processJob: ProcessJobUseCase, runPiece: RunPieceUseCase, failDeadLettered: FailDeadLetteredJobUseCase): HandlerTable {
  const usable = async <W>(payload: unknown, attempt: number, parse: () => W): Promise<W> => {
    try {
      return parse();
    } catch (error) {
      if (error instanceof PermanentMessageError) await failDeadLettered.failUnusable(payload, error.message, attempt);
      throw error;
    }
  };
  const handle =
    (jobType: JobType): MessageHandler =>
    async (payload, ctx) => {
      const work = await usable(payload, ctx.attempt, () => parseWorkPayload(jobType, payload));
      await processJob.execute(work, { attempt: ctx.attempt, isLastDelivery: ctx.isLastAttempt, signal: ctx.signal });
    };
  const handlePiece =
    (piece: WorkPiece): MessageHandler =>
    async (payload, ctx) => {
      const work = await usable(payload, ctx.attempt, () => parsePieceWork(piece, payload));
      await runPiece.execute(piece, work, { attempt: ctx.attempt, isLastDelivery: ctx.isLastAttempt, signal: ctx.signal });
    };
  return Object.fromEntries([
    ...JOB_TYPES.map((jobType) => [subjects.work(jobType), handle(jobType)]),
    ...WORK_PIECES.map((piece) => [subjects.workPiece(piece), handlePiece(piece)]),
  ]);
}

// The work consumer's dead letters (the last delivery failed): the job is failed.
export function workDeadLetterHandlers(failDeadLettered: FailDeadLetteredJobUseCase): DeadLetterHandlers {
  return { [CONSUMERS.renderWorker]: (letter) => failDeadLettered.execute(letter) };
}
