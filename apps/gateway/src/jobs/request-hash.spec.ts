import { createHash } from 'node:crypto';
import { canonicalJson, requestHash } from './request-hash';

describe('requestHash', () => {
  it('hashes bodies that differ only in key order the same', () => {
    expect(requestHash('clean-audio-video', { video_url: 'https://a.test/v.mp4', strength: 0.5 })).toBe(requestHash('clean-audio-video', { strength: 0.5, video_url: 'https://a.test/v.mp4' }));
  });

  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: null })).toBe('{"a":null,"b":{"c":[{"e":2,"f":1}],"d":1}}');
  });

  it('is the SHA-256 hex of the job type and the canonical JSON', () => {
    expect(requestHash('clean-audio-video', { b: 1, a: 'x' })).toBe(createHash('sha256').update('clean-audio-video\n{"a":"x","b":1}').digest('hex'));
  });

  it('tells the same body sent to the other job type apart', () => {
    const body = { video_url: 'https://a.test/v.mp4' };
    expect(requestHash('clean-audio-video', body)).not.toBe(requestHash('video-background-removal', body));
  });

  it('tells bodies with different values apart', () => {
    expect(requestHash('clean-audio-video', { strength: 0.5 })).not.toBe(requestHash('clean-audio-video', { strength: 0.6 }));
    expect(requestHash('clean-audio-video', { strength: 0.5 })).not.toBe(requestHash('clean-audio-video', { strength: '0.5' }));
  });
});
