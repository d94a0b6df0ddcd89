import { ProbeSlots } from './probe-slots';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('ProbeSlots', () => {
  it('runs at most its size at once and hands freed slots to the waiting in order', async () => {
    const slots = new ProbeSlots(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) => slots.run(10_000, async () => (started.push(i), await g.opened, i)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    gates[1].open();
    await runs[1];
    expect(started).toEqual([0, 1, 2]);
    gates[0].open();
    gates[2].open();
    gates[3].open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('gives up a wait at its time limit with a TimeoutError, and the slot later goes to the next waiter', async () => {
    const slots = new ProbeSlots(1);
    const busy = gate();
    const first = slots.run(10_000, () => busy.opened);
    await expect(slots.run(20, async () => 'never')).rejects.toMatchObject({ name: 'TimeoutError' });
    const third = slots.run(10_000, async () => 'third');
    busy.open();
    await first;
    await expect(third).resolves.toBe('third');
  });

  it('frees the slot of a failed probe', async () => {
    const slots = new ProbeSlots(1);
    await expect(slots.run(100, async () => Promise.reject(new Error('ffprobe died')))).rejects.toThrow('ffprobe died');
    await expect(slots.run(100, async () => 'next')).resolves.toBe('next');
  });
});
