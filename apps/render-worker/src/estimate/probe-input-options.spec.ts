import { ESTIMATE_CONTAINERS, probeInputOptions } from './probe-input-options';

describe('probeInputOptions', () => {
  it('whitelists the given protocols and only plain media containers', () => {
    expect(probeInputOptions(['http', 'https', 'tcp', 'tls'])).toEqual([
      '-protocol_whitelist',
      'http,https,tcp,tls',
      '-format_whitelist',
      ESTIMATE_CONTAINERS.join(','),
    ]);
  });

  it('leaves out every demuxer that opens URLs named inside the file', () => {
    for (const playlist of ['hls', 'dash', 'concat', 'image2', 'sdp', 'rtsp']) {
      expect(ESTIMATE_CONTAINERS).not.toContain(playlist);
    }
  });
});
