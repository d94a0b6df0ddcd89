// The jobs service owns this PostgreSQL schema; no other service reads or writes it.
export const JOBS_SCHEMA = 'jobs';
