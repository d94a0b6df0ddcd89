import { pictureOverLimit, refusalIn } from './input-refusal';
import type { PictureLimit } from './input-fence';

const LIMIT: PictureLimit = { maxSide: 4096, maxPixels: 4096 * 2304 };
const INPUT = '/w/jobs/1/input';

describe('refusalIn', () => {
  it('makes a container refused by the format whitelist invalid_file, naming the demuxer and the accepted ones', () => {
    for (const demuxer of ['hls', 'concat', 'tty', 'gif']) {
      const stderr = `[${demuxer} @ 0x55f8959596c0] Format not on whitelist 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf'\n${INPUT}: Invalid argument\n`;
      expect(refusalIn(stderr, INPUT, LIMIT)).toMatchObject({
        code: 'invalid_file',
        message: 'The container is not an accepted video format',
        details: [{ type: 'unsupported_container', message: expect.stringMatching(new RegExp(`"${demuxer}".*accepted: MP4/MOV, Matroska/WebM, AVI`)) }],
      });
    }
  });

  it('makes a picture file refused by the format whitelist a still image', () => {
    for (const demuxer of ['png_pipe', 'jpeg_pipe', 'image2', 'webp_pipe', 'alias_pix']) {
      const stderr = `[${demuxer} @ 0x5602] Format not on whitelist 'mov'\n${INPUT}: Invalid argument\n`;
      expect(refusalIn(stderr, INPUT, LIMIT)).toMatchObject({ code: 'invalid_file', message: 'The file is a still image, not a video', details: [{ type: 'still_image' }] });
    }
  });

  it('makes a protocol refusal invalid_file: the file names other files or URLs', () => {
    const stderr = "[file @ 0x1] Protocol 'http' not on whitelist 'file'!\n";
    expect(refusalIn(stderr, INPUT, LIMIT)).toMatchObject({ code: 'invalid_file', details: [{ type: 'unsupported_container', message: expect.stringContaining('(http)') }] });
  });

  it('makes a picture over -max_pixels input_validation on video_url, naming the limit', () => {
    const stderr = '[h264 @ 0x5626] [IMGUTILS @ 0x7ffe] Picture size 4160x2304 exceeds specified max pixel count 9850880, see the documentation if you wish to increase it\n';
    expect(refusalIn(stderr, INPUT, LIMIT)).toMatchObject({
      code: 'input_validation',
      details: [{ type: 'video_too_large', field: 'video_url', message: expect.stringContaining('4160x2304 pixels (as decoded); the limit is 4096 pixels a side and 4096x2304 in all') }],
    });
  });

  it('makes a decoder that could not allocate memory invalid_file, without the local path', () => {
    const stderr = `Failed to inject frame into filter network: Cannot allocate memory\nError while processing the decoded data for stream #0:0 of ${INPUT}\n`;
    expect(refusalIn(stderr, INPUT, LIMIT)).toMatchObject({
      code: 'invalid_file',
      details: [{ type: 'out_of_memory', message: 'Failed to inject frame into filter network: Cannot allocate memory' }],
    });
  });

  it('finds nothing in the words of other failures', () => {
    expect(refusalIn(`${INPUT}: Invalid data found when processing input\n`, INPUT, LIMIT)).toBeNull();
    expect(refusalIn('', INPUT, LIMIT)).toBeNull();
  });
});

describe('pictureOverLimit', () => {
  it.each([
    [4096, 2304],
    [2304, 4096],
    [3072, 3072],
    [16, 4096],
    [4096, 16],
  ])('accepts %ix%i', (width, height) => {
    expect(pictureOverLimit({ width, height }, LIMIT)).toBeNull();
  });

  it.each([
    [4112, 2304],
    [4096, 4096],
    [16, 4100],
    [3200, 3200],
  ])('refuses %ix%i with input_validation on video_url', (width, height) => {
    expect(pictureOverLimit({ width, height }, LIMIT)).toMatchObject({
      code: 'input_validation',
      message: 'The video is larger than 4096x2304 pixels',
      details: [{ type: 'video_too_large', field: 'video_url', message: `The picture is ${width}x${height}; the limit is 4096 pixels a side and 4096x2304 in all, either way up` }],
    });
  });
});
