import { isVideoUrl, VIDEO_URL_MAX_LENGTH } from './video-url.validator';

describe('isVideoUrl', () => {
  it.each(['https://cdn.example.com/a.mp4', 'http://example.com/a?b=c', 'upload://9b2f0c4e-8f6a-4d47-9a55-3f8e6d1c2b7a'])('accepts %s', (url) => {
    expect(isVideoUrl(url)).toBe(true);
  });

  it.each([
    ['ftp://example.com/a.mp4', 'another scheme'],
    ['https://user:pw@example.com/a.mp4', 'credentials'],
    ['upload://not-a-uuid', 'a malformed upload id'],
    ['example.com/a.mp4', 'no scheme'],
    [`https://example.com/${'a'.repeat(VIDEO_URL_MAX_LENGTH)}`, 'more than 8,192 characters'],
  ])('rejects %s (%s)', (url) => {
    expect(isVideoUrl(url)).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(isVideoUrl(42)).toBe(false);
  });
});
