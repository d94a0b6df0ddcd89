import { Logger as NestLogger, type LoggerService } from '@nestjs/common';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, stdTimeFunctions, type Level, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { currentLogContext, definedFields } from './log-context';

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

// LOG_LEVEL speaks Nest's level names (libs/config LOG_LEVELS); pino's are the same but two.
const PINO_LEVELS: Record<string, Level> = { fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

export interface LoggingOptions {
  level: string;
  format: string;
  // Pretty output only: colours when a person reads a terminal.
  colorize?: boolean;
  // Tests write somewhere else than stdout.
  destination?: NodeJS.WritableStream;
}

// Every line carries the current request, job and account (log-context.ts) and, when one is active,
// the trace and span ids, so a line leads to its trace.
function contextFields(): Record<string, string> {
  const fields: Record<string, string> = { ...definedFields(currentLogContext()) };
  const span = trace.getSpanContext(context.active());
  if (span && isSpanContextValid(span)) {
    fields.trace_id = span.traceId;
    fields.span_id = span.spanId;
  }
  return fields;
}

export function createLogger(service: string, options: LoggingOptions): Logger {
  const level = PINO_LEVELS[options.level] ?? 'info';
  if (options.format === 'pretty') {
    const stream = pretty({
      sync: true,
      colorize: options.colorize ?? false,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
      destination: options.destination ?? 1,
    });
    return pino({ level, base: { service }, mixin: contextFields }, stream);
  }
  return pino(
    {
      level,
      base: { service, pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      // Level names, not numbers: "level":"warn" is what people grep for.
      formatters: { level: (label) => ({ level: label }) },
      mixin: contextFields,
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

// Nest's LoggerService over pino: Nest passes the logger's context (its class name) last, and error()
// a stack before it.
export class NestPinoLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = params.filter((param) => param !== undefined);
    const fields: Record<string, unknown> = {};
    const last = rest.at(-1);
    if (typeof last === 'string' && !last.includes('\n')) {
      fields.context = last;
      rest.pop();
    }
    const stack = rest.find((param): param is string => typeof param === 'string');
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...message });
    } else {
      this.pino[level](fields, String(message));
    }
  }
}

let serviceLogger: Logger | undefined;

// Once per process, first thing in main: every Nest Logger (new Logger('X')) writes through pino from
// here on, boot steps before the Nest app included.
export function setupLogging(service: string, options: LoggingOptions): NestPinoLogger {
  serviceLogger = createLogger(service, { colorize: options.format === 'pretty' && process.stdout.isTTY, ...options });
  const nest = new NestPinoLogger(serviceLogger);
  NestLogger.overrideLogger(nest);
  return nest;
}

// The process's pino logger (a plain JSON one when setupLogging was not called: tests).
export function rootLogger(): Logger {
  serviceLogger ??= createLogger('test', { level: 'warn', format: 'json' });
  return serviceLogger;
}
