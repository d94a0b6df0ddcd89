import {
  ACCEPTED_CONTAINERS,
  decoderMaxPixels,
  fenceOptions,
  LOCAL_FILE,
  MAX_DECODED_PICTURE,
  ownInput,
  PRESIGNED_URL,
  userFileInput,
} from './input-fence';

describe('input fence', () => {
  it('whitelists only the given protocols, the plain containers and the decoder limit', () => {
    expect(fenceOptions(PRESIGNED_URL)).toEqual([
      '-protocol_whitelist', 'http,https,tcp,tls',
      '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf',
      '-max_pixels', '36458496',
    ]);
  });

  it("reads a user's local file through the file protocol only, fenced right before -i", () => {
    expect(userFileInput('-odd name.mp4')).toEqual([...fenceOptions(LOCAL_FILE), '-i', '-odd name.mp4']);
    expect(userFileInput('/w/in', { maxSide: 4096, maxPixels: 4096 * 2304 }).slice(-4)).toEqual(['-max_pixels', '9850880', '-i', '/w/in']);
  });

  it('leaves out every demuxer that opens files or URLs named inside the file, reads pictures, or is not a file at all', () => {
    for (const demuxer of ['hls', 'dash', 'concat', 'image2', 'image2pipe', 'png_pipe', 'jpeg_pipe', 'gif', 'apng', 'tty', 'lavfi', 'sdp', 'rtsp', 'rtp', 'webm_dash_manifest']) {
      expect(ACCEPTED_CONTAINERS).not.toContain(demuxer);
    }
  });

  it('gives decoders room for their alignment padding above the largest picture the limit accepts, either way up', () => {
    expect(decoderMaxPixels(MAX_DECODED_PICTURE)).toBe((8192 + 64) * (4352 + 64));
    const matting = { maxSide: 4096, maxPixels: 4096 * 2304 };
    // Every accepted shape, padded by 64 a side, fits: the widest one is the largest padded.
    for (const [width, height] of [[4096, 2304], [2304, 4096], [3072, 3072], [4000, 2359], [16, 4096]]) {
      expect(width * height).toBeLessThanOrEqual(matting.maxPixels);
      expect((width + 64) * (height + 64)).toBeLessThanOrEqual(decoderMaxPixels(matting));
    }
  });

  it('fences our own raw inputs by protocol: a file, or a pipe', () => {
    expect(ownInput('/w/denoised.s16le')).toEqual(['-protocol_whitelist', 'file', '-i', '/w/denoised.s16le']);
    expect(ownInput('pipe:0')).toEqual(['-protocol_whitelist', 'pipe', '-i', 'pipe:0']);
  });
});
