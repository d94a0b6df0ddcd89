import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { decide, type JobBillingRow } from './billing-state-machine';

const now = new Date('2025-01-01T00:00:00Z');
const row = (overrides: Partial<JobBillingRow> = {}): JobBillingRow => ({ job_id: 'j1', state: 'open', credits_held: null, credits_estimated: null, ...overrides });
const estimate = (credits: number) => ({ credits_estimated: credits, duration_seconds: credits, basis: 'probed_duration' as const, price_version: 2 });
const hold = (credits: number) => ({ kind: 'hold' as const, estimate: estimate(credits), options: CLEAN_AUDIO_DEFAULTS });
const priced = (credits: number) => ({ credits, billed_seconds: credits });

describe('billing state machine', () => {
  it('holds the quote when the available credits cover it, else rejects it', () => {
    expect(decide(row(), hold(10), 10, now)).toEqual({
      change: { options: CLEAN_AUDIO_DEFAULTS, price_version: 2, credits_estimated: 10, decided_at: now, state: 'held', credits_held: 10 },
      entries: [{ kind: 'hold', credits: 10, idempotencyKey: 'j1:hold' }],
      publish: 'hold_placed',
    });
    expect(decide(row(), hold(10), 9, now)).toMatchObject({ change: { state: 'rejected', credits_available: 9 }, entries: [], publish: 'hold_rejected' });
  });

  it('republishes its decision for a redelivered created event and holds nothing after an early final event', () => {
    expect(decide(row({ state: 'held', credits_held: 10 }), hold(10), 0, now)).toEqual({ change: null, entries: [], publish: 'hold_placed' });
    expect(decide(row({ state: 'rejected' }), hold(10), 100, now)).toEqual({ change: null, entries: [], publish: 'hold_rejected' });
    expect(decide(row({ state: 'closed' }), hold(10), 100, now)).toEqual({ change: null, entries: [], publish: null });
  });

  it('charges the price, at most the hold and the available credits together, and releases the hold', () => {
    const decision = decide(row({ state: 'held', credits_held: 10 }), { kind: 'charge', priced: priced(45), priceVersion: 2 }, 20, now);
    expect(decision.change).toMatchObject({ state: 'charged', credits_charged: 30, credits_priced: 45, credits_held: 10, settled_at: now });
    expect(decision.entries).toEqual([
      { kind: 'release', credits: 10, idempotencyKey: 'j1:release' },
      { kind: 'charge', credits: 30, idempotencyKey: 'j1:charge', billed_seconds: 45, price_version: 2 },
    ]);
    expect(decision.publish).toBe('charge_captured');
    expect(decide(row({ state: 'charged' }), { kind: 'charge', priced: priced(45), priceVersion: 2 }, 20, now).publish).toBe('charge_captured');
    expect(decide(row({ state: 'released' }), { kind: 'charge', priced: priced(45), priceVersion: 2 }, 20, now)).toEqual({ change: null, entries: [], publish: null });
  });

  it('releases a hold on failure or cancellation, and closes a job billing never held for', () => {
    expect(decide(row({ state: 'held', credits_held: 7 }), { kind: 'release' }, 0, now)).toEqual({
      change: { state: 'released', settled_at: now },
      entries: [{ kind: 'release', credits: 7, idempotencyKey: 'j1:release' }],
      publish: 'hold_released',
    });
    expect(decide(row(), { kind: 'release' }, 0, now)).toEqual({ change: { state: 'closed', settled_at: now }, entries: [], publish: null });
    expect(decide(row({ state: 'released' }), { kind: 'release' }, 0, now).publish).toBe('hold_released');
  });

  it('extends a hold to the price of the fetched input when the account covers the difference, keyed by the new total', () => {
    const held = row({ state: 'held', credits_held: 5 });
    expect(decide(held, { kind: 'extend', priced: priced(5) }, 0, now)).toEqual({ change: null, entries: [], publish: null, covered: true });
    expect(decide(held, { kind: 'extend', priced: priced(60) }, 55, now)).toEqual({
      change: { credits_held: 60 },
      entries: [{ kind: 'hold', credits: 55, idempotencyKey: 'j1:hold:60' }],
      publish: null,
      covered: true,
    });
    expect(decide(held, { kind: 'extend', priced: priced(60) }, 54, now)).toEqual({ change: null, entries: [], publish: null, covered: false });
    expect(decide(row({ state: 'released', credits_held: 5 }), { kind: 'extend', priced: priced(60) }, 100, now).conflict).toContain('holds nothing');
  });
});
