import type { JobType } from '@vj/contracts';
import { histogram, secondsSince } from '@vj/observability';
import type { InputMeasurer, JobProcessors, JobTypeProcessor } from '../processing/ports';

const processingSeconds = () =>
  histogram({
    name: 'worker_processing_seconds',
    help: "time a job type's processing ran (fetch and upload aside), by type and outcome (ok or error)",
    labelNames: ['type', 'outcome'],
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
  });
const framesPerSecond = () =>
  histogram({
    name: 'worker_processing_fps',
    help: "video frames of the input processed per second of processing, by type (successful runs)",
    labelNames: ['type'],
    buckets: [1, 5, 10, 25, 50, 100, 200, 400, 800, 1600],
  });

// Times each processor run and divides the frames the input measurer counted in the same input by it.
// Wraps the module's processors and measurer, so the processing code itself knows nothing of metrics.
export class ProcessingMetrics {
  private readonly frames = new Map<string, number>();

  measurer(inner: InputMeasurer): InputMeasurer {
    return {
      measure: async (path, maxSeconds, signal) => {
        const measured = await inner.measure(path, maxSeconds, signal);
        this.frames.set(path, measured.videoFrames);
        return measured;
      },
    };
  }

  processors(inner: JobProcessors): JobProcessors {
    return Object.fromEntries(Object.entries(inner).map(([type, processor]) => [type, this.timed(type as JobType, processor)])) as JobProcessors;
  }

  private timed<T extends JobType>(type: T, processor: JobTypeProcessor<T>): JobTypeProcessor<T> {
    return {
      get timeLimitMs() {
        return processor.timeLimitMs;
      },
      get maxSeconds() {
        return processor.maxSeconds;
      },
      refusal: (measured, job) => processor.refusal(measured, job),
      check: processor.check ? (job) => processor.check?.(job) : undefined,
      afterDelivery: processor.afterDelivery ? () => processor.afterDelivery?.() : undefined,
      plan: processor.plan ? (job, inputPath, measured, signal) => processor.plan!(job, inputPath, measured, signal) : undefined,
      run: async (work) => {
        const started = process.hrtime.bigint();
        try {
          const output = await processor.run(work);
          const seconds = secondsSince(started);
          processingSeconds().observe({ type, outcome: 'ok' }, seconds);
          const frames = this.frames.get(work.inputPath);
          if (frames && seconds > 0) framesPerSecond().observe({ type }, frames / seconds);
          return output;
        } catch (error) {
          processingSeconds().observe({ type, outcome: 'error' }, secondsSince(started));
          throw error;
        } finally {
          this.frames.delete(work.inputPath);
        }
      },
    };
  }
}
