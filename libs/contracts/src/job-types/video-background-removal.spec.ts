import { isBackgroundImageUrl, isCompositeBackground } from './video-background-removal';

describe('isCompositeBackground', () => {
  it('takes exactly one kind of background, each within its range', () => {
    expect(isCompositeBackground({ color: '#00b140' })).toBe(true);
    expect(isCompositeBackground({ blur: 0 })).toBe(true);
    expect(isCompositeBackground({ blur: 1 })).toBe(true);
    expect(isCompositeBackground({ image_url: 'https://example.com/room.jpg' })).toBe(true);
    expect(isCompositeBackground({ color: '#00b140', blur: 0.5 })).toBe(false);
    expect(isCompositeBackground({ color: 'green' })).toBe(false);
    expect(isCompositeBackground({ blur: 1.5 })).toBe(false);
    expect(isCompositeBackground({ image: 'https://example.com/room.jpg' })).toBe(false);
    expect(isCompositeBackground(null)).toBe(false);
    expect(isCompositeBackground({})).toBe(false);
  });

  // What goes into ffmpeg's graph or is fetched is checked by the worker too: a message written by
  // something else than the gateway takes nothing the API would not.
  it('takes only http(s) image URLs with a host and no credentials, of at most 2,048 characters, and upload:// URLs as uploads write them', () => {
    expect(isBackgroundImageUrl('http://example.com/a.png')).toBe(true);
    expect(isBackgroundImageUrl(`https://example.com/${'a'.repeat(2000)}`)).toBe(true);
    expect(isBackgroundImageUrl(`https://example.com/${'a'.repeat(2030)}`)).toBe(false);
    expect(isBackgroundImageUrl('file:///etc/passwd')).toBe(false);
    expect(isBackgroundImageUrl('upload://9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a')).toBe(true);
    // Only the id: no path, no other scheme's trick, no upper case (the worker builds a key from it).
    expect(isBackgroundImageUrl('upload://9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a/../x')).toBe(false);
    expect(isBackgroundImageUrl('upload://../../uploads/other/9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a')).toBe(false);
    expect(isBackgroundImageUrl('upload://9B2E4C1D-7F3A-4E8B-A6D5-1C0F2E3D4B5A')).toBe(false);
    expect(isBackgroundImageUrl('https://user:secret@example.com/a.png')).toBe(false);
    expect(isBackgroundImageUrl('concat:a.png|b.png')).toBe(false);
    expect(isBackgroundImageUrl('not a url')).toBe(false);
    expect(isBackgroundImageUrl(42)).toBe(false);
  });
});
