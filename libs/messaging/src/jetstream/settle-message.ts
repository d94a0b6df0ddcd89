import type { Logger } from '@nestjs/common';
import type { JsMsg } from 'nats';
import type { ConsumerSpec } from './consumer-spec';
import type { DeadLetter } from './dead-letter';
import { undecodableLetter, type KeptLetter } from './keep-dead-letter';
import type { Settlement } from './settlement';

export interface SettleRequest {
  msg: JsMsg;
  spec: ConsumerSpec;
  attempt: number;
  // The decoded message, for its dead letter.
  payload: unknown;
  failure: unknown;
  // Keeps and handles a dead letter; when it fails the message is left unsettled.
  deadLetter: (deadLetter: DeadLetter) => Promise<void>;
  logger: Pick<Logger, 'warn' | 'error'>;
}

// Carries out the settlement decideSettlement chose for a handled message: ack; nak after the backoff;
// term; or, after the last attempt, the dead letter kept and handled, then term.
export async function settleMessage(settlement: Settlement, { msg, spec, attempt, payload, failure, deadLetter, logger }: SettleRequest): Promise<void> {
  switch (settlement.kind) {
    case 'ack':
      return msg.ack();
    case 'nak':
      logger.warn(`${msg.subject} attempt ${attempt}/${spec.maxDeliver} failed, retry in ${settlement.delayMs} ms: ${String(failure)}`);
      return msg.nak(settlement.delayMs);
    // No term reason: nats-server 2.9 only understands a bare +TERM and would ignore the rest.
    case 'term':
      logger.error(`${msg.subject} failed permanently: ${settlement.reason}`);
      return msg.term();
    case 'dead-letter':
      try {
        await deadLetter({ stream: spec.stream, durable: spec.durable, subject: msg.subject, streamSeq: msg.seq, payload, deliveries: attempt, reason: 'last-attempt', error: settlement.reason });
        return msg.term();
      } catch (error) {
        // Left unsettled: once its ack wait ends, the MAX_DELIVERIES advisory retries the dead letter.
        logger.error(`dead-letter handler of ${spec.durable} failed: ${String(error)}`);
      }
  }
}

export interface UndecodableRequest {
  msg: JsMsg;
  spec: ConsumerSpec;
  // Why it could not be decoded.
  failure: unknown;
  // Keeps it in VJ_DEAD_LETTERS.
  keep: (letter: KeptLetter) => Promise<void>;
  logger: Pick<Logger, 'error'>;
}

// A message that is not JSON: kept, then terminated, as retrying cannot make it JSON. Left unsettled
// when it cannot be kept (NATS down), as a dead letter is: it comes back after its ack wait, or to
// the MAX_DELIVERIES advisory.
export async function settleUndecodable({ msg, spec, failure, keep, logger }: UndecodableRequest): Promise<void> {
  try {
    await keep(undecodableLetter(spec, msg, msg.info.deliveryCount, failure));
  } catch (error) {
    logger.error(`undecodable message on ${msg.subject} not kept: ${String(error)}`);
    return;
  }
  logger.error(`kept and terminated undecodable message on ${msg.subject}: ${String(failure)}`);
  msg.term();
}
