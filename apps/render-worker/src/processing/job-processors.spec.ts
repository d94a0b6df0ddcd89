import { defineJobType, registerJobType, type JobType } from '@vj/contracts';
import { registerJobProcessor, withRegisteredProcessors } from './job-processors';
import type { JobProcessors, JobTypeProcessor } from './ports';
import { storedResult } from './stored-result';

const processor = (maxSeconds: number): JobTypeProcessor => ({ timeLimitMs: 1_000, maxSeconds, refusal: () => null, run: async () => ({ files: [], durationSeconds: 0 }) });
const builtIn = { 'clean-audio-video': processor(1), 'video-background-removal': processor(2) } as JobProcessors;
const tools = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' };
const file = { object_key: 'results/a/j/1/x.mp4', content_type: 'video/mp4', file_name: 'x.mp4', file_size: 3 };

const definition = (type: string, result: 'video' | 'files') =>
  defineJobType<string, { loud: boolean }>({
    type,
    names: { schema: 'X', reportSchema: 'XReport', operation: 'X', noun: type },
    defaults: { loud: false },
    booleanOptions: ['loud'],
    price: { credits_per_second: 1, option_multipliers: {}, minimum_credits: 1, max_duration_seconds: 60 },
    result,
  });

describe('the worker’s processors by job type (decision 0103)', () => {
  it('takes the built-in ones as given', () => {
    expect(withRegisteredProcessors(builtIn, tools)).toEqual(builtIn);
  });

  it('makes a registered type’s processor from its factory, with the worker’s tools, and refuses one twice', () => {
    registerJobType(definition('echo-video', 'video'));
    const factory = jest.fn(() => processor(3));
    registerJobProcessor('echo-video', factory);
    const processors = withRegisteredProcessors(builtIn, tools) as Record<string, JobTypeProcessor>;
    expect(processors['echo-video']!.maxSeconds).toBe(3);
    expect(factory).toHaveBeenCalledWith(tools);
    expect(() => registerJobProcessor('echo-video', factory)).toThrow(/has a processor already/);
  });

  it('stops the worker at boot when a registered type has no processor', () => {
    registerJobType(definition('mute-video', 'files'));
    expect(() => withRegisteredProcessors(builtIn, tools)).toThrow(/job type mute-video has no processor/);
  });

  it('stores a result in the shape the type’s definition names, and nothing kept or measured for a registered type', () => {
    expect(storedResult('echo-video' as JobType, [file])).toEqual({ job_type: 'echo-video', video: file });
    expect(storedResult('mute-video' as JobType, [file, file])).toEqual({ job_type: 'mute-video', files: [file, file] });
    expect(() => storedResult('echo-video' as JobType, [file, file])).toThrow(/produces one file, got 2/);
    expect(() => storedResult('echo-video' as JobType, [file], undefined, { kind: 'cutout', frames: 1, frames_with_person: 1, flicker: 0 })).toThrow(/cannot measure cutout/);
  });
});
