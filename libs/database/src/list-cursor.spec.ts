import { decodeCursor, encodeCursor } from './list-cursor';

describe('list cursor', () => {
  it('round-trips the position of the last job on a page, to the millisecond', () => {
    const position = { createdAt: new Date('2025-01-02T03:04:05.678Z'), id: '7d9f1c1e-0b8a-4a57-9a53-5c2f7d1d2e11' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('is opaque: no readable timestamp or id in it', () => {
    const cursor = encodeCursor({ createdAt: new Date('2025-01-02T03:04:05.678Z'), id: '7d9f1c1e-0b8a-4a57-9a53-5c2f7d1d2e11' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('2025');
  });

  it.each(['', 'garbage', Buffer.from('["not a date","7d9f1c1e-0b8a-4a57-9a53-5c2f7d1d2e11"]').toString('base64url'), Buffer.from('["2025-01-01T00:00:00Z","x"]').toString('base64url')])(
    'rejects a cursor it did not hand out: %p',
    (cursor) => expect(decodeCursor(cursor)).toBeNull(),
  );
});
