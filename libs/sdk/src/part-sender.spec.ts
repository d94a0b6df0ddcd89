import { partBytes, sendParts, type PartTransport, type SignedPart } from './part-sender';
import { uploadBody } from './upload-body';

const LAYOUT = { part_size: 10, count: 3 };
const FILE = Uint8Array.from({ length: 25 }, (_, i) => i);

// A transport whose PUTs answer from `answers` per part, in order (then 200), recording what was sent.
function fakeTransport(answers: Record<number, (number | 'drop')[]> = {}) {
  const signed: number[][] = [];
  const sent: { part: number; bytes: number[] }[] = [];
  const sleeps: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let signature = 0;
  const transport: PartTransport = {
    async sign(partNumbers) {
      signed.push(partNumbers);
      signature++;
      return partNumbers.map((n) => ({ part_number: n, size: partBytes(LAYOUT, FILE.length, n), url: `https://storage.example.com/${n}?sig=${signature}` }));
    },
    async put(part, bytes) {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const data = new Uint8Array(await new Response(bytes.stream()).arrayBuffer());
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      sent.push({ part: part.part_number, bytes: [...data] });
      const answer = answers[part.part_number]?.shift() ?? 200;
      if (answer === 'drop') throw new TypeError('fetch failed');
      return answer;
    },
    async sleep(ms) {
      sleeps.push(ms);
    },
  };
  return { transport, signed, sent, sleeps, mostInFlight: () => mostInFlight };
}

describe('sendParts', () => {
  it("sends each part's own bytes, a few at a time, and tells each one stored", async () => {
    const fake = fakeTransport();
    const stored: SignedPart[] = [];
    await sendParts(fake.transport, await uploadBody(FILE, {}), LAYOUT, [1, 2, 3], { concurrency: 2, onStored: (part) => stored.push(part) });
    const byPart = Object.fromEntries(fake.sent.map(({ part, bytes }) => [part, bytes]));
    expect(byPart).toEqual({ 1: [...FILE.subarray(0, 10)], 2: [...FILE.subarray(10, 20)], 3: [...FILE.subarray(20)] });
    expect(stored.map((part) => part.part_number).sort()).toEqual([1, 2, 3]);
    expect(fake.mostInFlight()).toBe(2);
  });

  it('sends a part again after a dropped connection, a 503 and an expired URL (signed again), waiting longer each time', async () => {
    const fake = fakeTransport({ 2: ['drop', 503, 403] });
    await sendParts(fake.transport, await uploadBody(FILE, {}), LAYOUT, [2], { concurrency: 4, onStored: () => undefined });
    expect(fake.sent.map(({ part }) => part)).toEqual([2, 2, 2, 2]);
    expect(fake.sleeps).toEqual([500, 1000, 2000]);
    expect(fake.signed).toEqual([[2], [2]]);
  });

  it('fails only once the parts in flight are stored, and starts none after a part failed', async () => {
    // Part 1 is slow; part 2 is refused at once; part 3 waits in the queue.
    const fake = fakeTransport({ 2: [400] });
    const slow: PartTransport = {
      ...fake.transport,
      put: async (part, bytes) => {
        if (part.part_number === 1) await new Promise((resolve) => setTimeout(resolve, 30));
        return fake.transport.put(part, bytes);
      },
    };
    const stored: number[] = [];
    const sending = sendParts(slow, await uploadBody(FILE, {}), LAYOUT, [1, 2, 3], { concurrency: 2, onStored: (part) => stored.push(part.part_number) });
    await expect(sending).rejects.toMatchObject({ code: 'upload_failed', message: expect.stringContaining('part 2') });
    expect(stored).toEqual([1]);
    expect(fake.sent.map(({ part }) => part).sort()).toEqual([1, 2]);
  });

  it('gives up on a refusal that sending again cannot mend, and on a part that keeps failing', async () => {
    const refused = fakeTransport({ 1: [400] });
    await expect(sendParts(refused.transport, await uploadBody(FILE, {}), LAYOUT, [1], { concurrency: 1, onStored: () => undefined })).rejects.toMatchObject({
      code: 'upload_failed',
      message: expect.stringContaining('part 1 was refused by storage (400)'),
    });
    const failing = fakeTransport({ 3: [500, 500, 500, 500, 500] });
    await expect(sendParts(failing.transport, await uploadBody(FILE, {}), LAYOUT, [3], { concurrency: 1, onStored: () => undefined })).rejects.toMatchObject({
      code: 'upload_failed',
      message: expect.stringContaining('resume the upload'),
    });
    expect(failing.sent).toHaveLength(5);
  });

  it('cannot send a stream in parts', async () => {
    const body = await uploadBody({ stream: new Blob([FILE]).stream(), size: FILE.length }, {});
    await expect(sendParts(fakeTransport().transport, body, LAYOUT, [1], { concurrency: 1, onStored: () => undefined })).rejects.toMatchObject({ code: 'upload_failed' });
  });
});
