import type { LogLevel } from '@nestjs/common';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

// LOG_LEVEL names the most verbose level shown; an unknown name means 'log'.
export function logLevelsUpTo(level: string): LogLevel[] {
  const index = LEVELS.indexOf(level as LogLevel);
  return LEVELS.slice(0, (index === -1 ? LEVELS.indexOf('log') : index) + 1);
}
