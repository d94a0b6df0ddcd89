import { metricsText } from '@vj/observability';
import type { JobProcessors, JobTypeProcessor } from '../processing/ports';
import { ProcessingMetrics } from './processing-metrics';

function processor(run: JobTypeProcessor['run']): JobTypeProcessor {
  return { timeLimitMs: 1_000, maxSeconds: 60, refusal: () => null, run };
}

describe('ProcessingMetrics', () => {
  it('times each run by job type and divides the frames measured in its input by the processing time', async () => {
    const metrics = new ProcessingMetrics();
    const measurer = metrics.measurer({ measure: async () => ({ seconds: 4, videoFrames: 100 }) });
    const processors = metrics.processors({
      'clean-audio-video': processor(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { files: [], durationSeconds: 4 };
      }),
      'video-background-removal': processor(async () => {
        throw new Error('model failed');
      }),
    } as JobProcessors);
    await measurer.measure('/work/job-1/input', 60, new AbortController().signal);
    const work = { job: {} as never, inputPath: '/work/job-1/input', workDir: '/work/job-1', signal: new AbortController().signal };
    await processors['clean-audio-video'].run(work);
    await expect(processors['video-background-removal'].run(work)).rejects.toThrow('model failed');

    const text = await metricsText();
    expect(text).toContain('worker_processing_seconds_count{type="clean-audio-video",outcome="ok"} 1');
    expect(text).toContain('worker_processing_seconds_count{type="video-background-removal",outcome="error"} 1');
    // 100 frames in a little over 50 ms: at most 2000 fps, far over 400.
    expect(text).toContain('worker_processing_fps_bucket{le="400",type="clean-audio-video"} 0');
    expect(text).toContain('worker_processing_fps_count{type="clean-audio-video"} 1');
    expect(text).not.toContain('worker_processing_fps_count{type="video-background-removal"}');
  });

  it('keeps what the processor says about itself', () => {
    const inner = processor(async () => ({ files: [], durationSeconds: 0 }));
    const wrapped = new ProcessingMetrics().processors({ 'clean-audio-video': inner, 'video-background-removal': inner } as JobProcessors)['clean-audio-video'];
    expect([wrapped.timeLimitMs, wrapped.maxSeconds, wrapped.refusal({ seconds: 1, videoFrames: 1 }, {} as never)]).toEqual([1_000, 60, null]);
  });

  it("passes the processor's afterDelivery on", () => {
    const afterDelivery = jest.fn();
    const inner = { ...processor(async () => ({ files: [], durationSeconds: 0 })), afterDelivery };
    const wrapped = new ProcessingMetrics().processors({ 'clean-audio-video': inner, 'video-background-removal': inner } as JobProcessors)['clean-audio-video'];
    wrapped.afterDelivery?.();
    expect(afterDelivery).toHaveBeenCalledTimes(1);
  });

  it("passes the processor's plan on, so a long job is still cut into pieces (decision 0101)", async () => {
    const plan = { frames: 300, fps: 25, segments: [] };
    const inner = { ...processor(async () => ({ files: [], durationSeconds: 0 })), plan: jest.fn(async () => plan) };
    const wrapped = new ProcessingMetrics().processors({ 'clean-audio-video': inner, 'video-background-removal': inner } as JobProcessors)['clean-audio-video'];
    const signal = new AbortController().signal;
    await expect(wrapped.plan?.({} as never, '/work/input', { seconds: 12, videoFrames: 300 }, signal)).resolves.toBe(plan);
    expect(inner.plan).toHaveBeenCalledWith({}, '/work/input', { seconds: 12, videoFrames: 300 }, signal);
  });
});
