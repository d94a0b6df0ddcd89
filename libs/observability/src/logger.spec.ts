import { PassThrough } from 'node:stream';
import { runWithLogContext } from './log-context';
import { createLogger, NestPinoLogger } from './logger';

function capture(level = 'log', format = 'json') {
  const destination = new PassThrough();
  const lines: string[] = [];
  destination.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const logger = new NestPinoLogger(createLogger('jobs', { level, format, destination }));
  return { logger, lines, json: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('JSON logs', () => {
  it('writes one JSON object a line with the level name, the service, the Nest context and the current request, job and account', () => {
    const { logger, json } = capture();
    runWithLogContext({ request_id: 'req-1', job_id: 'job-1', account_id: 'acc-1' }, () => logger.log('job created', 'JobsService'));
    expect(json()).toEqual([
      expect.objectContaining({ level: 'info', service: 'jobs', context: 'JobsService', msg: 'job created', request_id: 'req-1', job_id: 'job-1', account_id: 'acc-1' }),
    ]);
  });

  it('keeps LOG_LEVEL: nothing below it is written', () => {
    const { logger, json } = capture('warn');
    logger.log('quiet', 'X');
    logger.debug('quieter', 'X');
    logger.warn('heard', 'X');
    expect(json().map((line) => line.msg)).toEqual(['heard']);
  });

  it("takes Nest's error(message, stack, context) apart", () => {
    const { logger, json } = capture();
    logger.error('it broke', 'Error: it broke\n    at somewhere', 'Worker');
    expect(json()[0]).toEqual(expect.objectContaining({ level: 'error', msg: 'it broke', context: 'Worker', stack: 'Error: it broke\n    at somewhere' }));
  });

  it('merges an object message into the line (the access log)', () => {
    const { logger, json } = capture();
    logger.log({ msg: 'GET /v1/jobs 200', status: 200 }, 'Http');
    expect(json()[0]).toEqual(expect.objectContaining({ msg: 'GET /v1/jobs 200', status: 200, context: 'Http' }));
  });

  it('writes readable lines with LOG_FORMAT=pretty', () => {
    const { logger, lines } = capture('log', 'pretty');
    runWithLogContext({ job_id: 'job-7' }, () => logger.log('handled', 'JetStreamConsumers'));
    expect(lines[0]).toContain('[JetStreamConsumers] handled');
    expect(lines.join('\n')).toContain('job_id: "job-7"');
  });
});
