import { damagedInputError, damageIn, forUser, truncationIn } from './input-damage';

describe('truncationIn', () => {
  it('finds the demuxer lines of a cut-off MP4 or Matroska file', () => {
    expect(truncationIn('[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5564] stream 1, offset 0x18afc: partial file\n')).toBe(
      '[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5564] stream 1, offset 0x18afc: partial file',
    );
    expect(truncationIn('[matroska,webm @ 0x55749f31f940] File ended prematurely')).toContain('File ended prematurely');
  });

  it('ignores ordinary output', () => {
    expect(truncationIn('[aac @ 0x1] Qavg: 1234\n')).toBeNull();
    expect(truncationIn('')).toBeNull();
  });
});

describe('damageIn', () => {
  it('also finds corrupt data, which only counts when ffmpeg fails', () => {
    expect(damageIn('/w/in: Invalid data found when processing input')).toBe('/w/in: Invalid data found when processing input');
    expect(damageIn('[h264 @ 0x1] error while decoding MB 3 4')).toContain('error while decoding');
    expect(damageIn('Unrecognized option \'x\'.\nError splitting the argument list: Option not found')).toBeNull();
  });
});

describe('damagedInputError', () => {
  it('fails with invalid_file and a detail without local paths or ffmpeg context prefixes', () => {
    const error = damagedInputError('[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55dd58dcd900] stream 0, offset 0x18df9: partial file', '/w/in');
    expect(error.code).toBe('invalid_file');
    expect(error.details).toEqual([{ type: 'damaged_file', message: 'stream 0, offset 0x18df9: partial file' }]);
    expect(forUser('/w/jobs/1/in.mp4: Invalid data found when processing input', '/w/jobs/1/in.mp4')).toBe(
      'input: Invalid data found when processing input',
    );
  });
});
