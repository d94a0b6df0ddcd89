import type { ConsumerName, StreamName } from '@vj/contracts';
import type { ConsumerSpec } from './consumer-spec';
import { deadLetterPattern } from './dead-letter';

export interface DeadLetterSource {
  stream: StreamName;
  durable: ConsumerName;
}

// Pure boot check: every declared subject and dead-letter source has exactly one handler, and no
// handler listens for something nobody declared. Returns the problems; empty means bootable.
export function checkHandlers(
  consumers: ConsumerSpec[],
  watches: DeadLetterSource[],
  handlerCount: (pattern: string) => number,
  registeredPatterns: string[],
): string[] {
  const problems: string[] = [];
  const declared = new Map<string, string>();
  const declare = (pattern: string, owner: string) => {
    const previous = declared.get(pattern);
    if (previous) problems.push(`"${pattern}" is declared by both ${previous} and ${owner}`);
    declared.set(pattern, owner);
    const count = handlerCount(pattern);
    if (count === 0) problems.push(`no handler for "${pattern}" (${owner})`);
    if (count > 1) problems.push(`${count} handlers for "${pattern}" (${owner}); exactly one is allowed`);
  };
  for (const spec of consumers) {
    for (const subject of spec.subjects) declare(subject, `consumer ${spec.durable}`);
    if (spec.deadLetters ?? true) declare(deadLetterPattern(spec.durable), `consumer ${spec.durable}`);
    if (spec.ordered && (spec.concurrency !== 1 || spec.maxAckPending !== 1)) problems.push(`consumer ${spec.durable} is ordered: its concurrency and maxAckPending must be 1`);
  }
  for (const watch of watches) declare(deadLetterPattern(watch.durable), `dead-letter watch ${watch.durable}`);
  for (const pattern of registeredPatterns) {
    if (!declared.has(pattern)) problems.push(`handler for "${pattern}" matches no declared consumer subject`);
  }
  return problems;
}
