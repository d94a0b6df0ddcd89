// The jobs service's parsed environment (jobs.env.ts), for injection.
export const JOBS_CONFIG = Symbol('JobsConfig');
