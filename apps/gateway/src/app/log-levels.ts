import type { LogLevel } from '@nestjs/common';

const ORDER: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

// LOG_LEVEL names the most verbose level kept; an unknown name keeps the default ('log').
export function logLevels(level: string): LogLevel[] {
  const index = ORDER.indexOf(level as LogLevel);
  return ORDER.slice(0, (index < 0 ? ORDER.indexOf('log') : index) + 1);
}
