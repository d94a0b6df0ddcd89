import type { LogLevel } from '@nestjs/common';

// Nest's levels from the least to the most verbose; LOG_LEVEL names the most verbose one shown.
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export function logLevelsUpTo(level: string): LogLevel[] {
  const index = LOG_LEVELS.indexOf(level as LogLevel);
  return LOG_LEVELS.slice(0, (index < 0 ? LOG_LEVELS.indexOf('log') : index) + 1);
}
