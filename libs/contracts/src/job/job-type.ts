import { CLEAN_AUDIO_VIDEO_TYPE } from '../job-types/clean-audio-video';
import type { JobTypeDefinition } from '../job-types/job-type-definition';
import { VIDEO_BACKGROUND_REMOVAL_TYPE } from '../job-types/video-background-removal';
import type { JobOptionsByType } from './job-options';

// The path segment of each job resource is its wire name everywhere (API, subjects, database).
export type JobType = keyof JobOptionsByType;

// Every job type this platform serves (decision 0103), one entry each, in the order the API documents
// them: a type in JobOptionsByType without its definition here does not compile.
const BUILT_IN: { readonly [T in JobType]: JobTypeDefinition<T> } = {
  'video-background-removal': VIDEO_BACKGROUND_REMOVAL_TYPE,
  'clean-audio-video': CLEAN_AUDIO_VIDEO_TYPE,
};

const definitions = new Map<string, JobTypeDefinition>(Object.entries(BUILT_IN));

// The registered types' names. One array, added to in place by registerJobType, so a validator made
// from it before a registration still knows the type.
export const JOB_TYPES: readonly JobType[] = Object.keys(BUILT_IN) as JobType[];

export function isJobType(value: unknown): value is JobType {
  return typeof value === 'string' && definitions.has(value);
}

export function jobTypeDefinition(type: JobType): JobTypeDefinition {
  const definition = definitions.get(type);
  if (!definition) throw new Error(`unknown job type ${type}`);
  return definition;
}

// A name that is safe as a URL path segment, a NATS subject token and a database value.
const JOB_TYPE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

// Adds a job type beside the built-in ones, before the process reads the registry to build its routes,
// schemas, prices and consumers: the test suite's third type is registered this way
// (test/support/third-job-type), in every process of the stack it starts.
export function registerJobType(definition: JobTypeDefinition): void {
  if (!JOB_TYPE_NAME.test(definition.type) || definition.type.length > 64) throw new Error(`job type name "${definition.type}" is not a lowercase-hyphenated word`);
  if (definitions.has(definition.type)) throw new Error(`job type ${definition.type} is registered already`);
  definitions.set(definition.type, definition);
  (JOB_TYPES as string[]).push(definition.type);
}
