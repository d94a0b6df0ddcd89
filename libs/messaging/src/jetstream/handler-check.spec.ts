import { CONSUMERS, STREAMS, subjects } from '@vj/contracts';
import type { ConsumerSpec } from './consumer-spec';
import { deadLetterPattern } from './dead-letter';
import { checkHandlers } from './handler-check';

const spec: ConsumerSpec = {
  stream: STREAMS.reports,
  durable: CONSUMERS.jobsReports,
  filterSubject: subjects.reportAll(),
  subjects: [subjects.report('started'), subjects.report('succeeded')],
  ackWaitMs: 1_000,
  maxDeliver: 3,
  concurrency: 1,
  backoffMs: [],
  maxProcessingMs: 1_000,
};
const allPatterns = [...spec.subjects, deadLetterPattern(spec.durable)];

function check(counts: Record<string, number>, watches = [] as { stream: typeof STREAMS.work; durable: typeof CONSUMERS.renderWorker }[]) {
  return checkHandlers([spec], watches, (p) => counts[p] ?? 0, Object.keys(counts));
}

describe('checkHandlers', () => {
  it('accepts exactly one handler per declared subject and dead-letter pattern', () => {
    expect(check(Object.fromEntries(allPatterns.map((p) => [p, 1])))).toEqual([]);
  });

  it('reports a declared subject without a handler', () => {
    const counts = Object.fromEntries(allPatterns.map((p) => [p, 1]));
    delete counts[subjects.report('succeeded')];
    expect(check(counts)).toEqual([`no handler for "${subjects.report('succeeded')}" (consumer ${CONSUMERS.jobsReports})`]);
  });

  it('reports a subject handled twice', () => {
    const counts = { ...Object.fromEntries(allPatterns.map((p) => [p, 1])), [subjects.report('started')]: 2 };
    expect(check(counts)).toEqual([expect.stringContaining('2 handlers for "vj.reports.job.v1.started"')]);
  });

  it('reports a handler no consumer declares, and a watched consumer without a dead-letter handler', () => {
    const counts = { ...Object.fromEntries(allPatterns.map((p) => [p, 1])), [subjects.report('failed')]: 1 };
    const problems = check(counts, [{ stream: STREAMS.work, durable: CONSUMERS.renderWorker }]);
    expect(problems).toEqual([
      `no handler for "${deadLetterPattern(CONSUMERS.renderWorker)}" (dead-letter watch ${CONSUMERS.renderWorker})`,
      `handler for "${subjects.report('failed')}" matches no declared consumer subject`,
    ]);
  });
});
