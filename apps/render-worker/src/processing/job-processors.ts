import { JOB_TYPES, type JobType } from '@vj/contracts';
import type { JobProcessors, JobTypeProcessor } from './ports';

// What a processor registered at run time is made with: the worker's media tools.
export interface ProcessorTools {
  ffmpegPath: string;
  ffprobePath: string;
}

export type JobProcessorFactory = (tools: ProcessorTools) => JobTypeProcessor<JobType>;

const factories = new Map<string, JobProcessorFactory>();

// The worker's part of a job type registered at run time (registerJobType, decision 0103), before
// the worker's module is built.
export function registerJobProcessor(type: string, factory: JobProcessorFactory): void {
  if (factories.has(type)) throw new Error(`job type ${type} has a processor already`);
  factories.set(type, factory);
}

// A processor for every registered job type: the built-in ones as given (the mapped type makes them
// complete), the rest made by their factories. A registered type without one stops the worker at boot
// instead of failing its jobs.
export function withRegisteredProcessors(builtIn: JobProcessors, tools: ProcessorTools): JobProcessors {
  const processors: Record<string, JobTypeProcessor<JobType>> = { ...builtIn };
  for (const type of JOB_TYPES) {
    if (type in processors) continue;
    const factory = factories.get(type);
    if (!factory) throw new Error(`job type ${type} has no processor: register one with registerJobProcessor`);
    processors[type] = factory(tools);
  }
  return processors as JobProcessors;
}
