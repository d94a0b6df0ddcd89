import { decodeAudioArgs, decodeStemsArgs, INPUT_LEVELS, keepStemsArgs, measureLoudnessArgs, muxArgs, OUTPUT_LEVELS, tapInput, type MuxPlan } from './clean-audio-args';
import { levelsFilter } from './noise-floor';
import { ownInput } from './input-fence';
import { outputFormatFor } from './output-format';
import type { MediaProbe } from './parse-probe';

function formatFor(videoCodec: string) {
  const probe: MediaProbe = {
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    durationSeconds: 2,
    video: { codecName: videoCodec, width: 320, height: 240, fps: 25, frameRate: '25/1', nbFrames: 50, durationSeconds: 2, rotation: 0, colorSpace: null, colorPrimaries: null, colorTransfer: null },
    audio: { codecName: 'aac', sampleRate: 44100, channels: 2, durationSeconds: 2, language: null },
  };
  return outputFormatFor(probe);
}

// The fence of a user's file (input-fence.ts): only the file protocol, plain containers, the decoder
// limit of 8K either way up (8192x4352, padded to 8256x4416).
const FENCED = ['-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf', '-max_pixels', '36458496'];

function plan(videoCodec: string, overrides: Partial<MuxPlan> = {}): MuxPlan {
  return {
    inputPath: '/w/in',
    rawAudioPath: '/w/denoised.s16le',
    lowBand: null,
    outputPath: '/w/out',
    format: formatFor(videoCodec),
    audioFilter: null,
    language: null,
    pictureHashes: { source: '/w/source.sha256', written: '/w/written.sha256' },
    ...overrides,
  };
}

// The opening of a decoded stream as samples for the report's audio offset (decision 0098).
const OFFSET_SAMPLES = (path: string): string[] => [
  '-map', '0:a:0', '-t', '30', '-af', 'aresample=async=1:first_pts=0', '-ar', '1000', '-ac', '1', '-c:a', 'pcm_f32le', '-f', 'f32le', path,
];

describe('decodeAudioArgs', () => {
  it('decodes the first audio stream of the fenced input to s16le 48 kHz mono on stdout, aligned to time 0, measures it as it is and keeps its opening for the offset', () => {
    expect(decodeAudioArgs('/w/in', 1800, '/w/offset-source.f32')).toEqual([
      '-hide_banner', '-nostdin', '-nostats', '-y',
      ...FENCED, '-i', '/w/in',
      '-map', '0:a:0',
      '-t', '1801',
      '-af', 'aresample=async=1:first_pts=0',
      '-f', 's16le', '-ar', '48000', '-ac', '1',
      '-c:a', 'pcm_s16le',
      'pipe:1',
      '-map', '0:a:0',
      '-t', '1801',
      '-af', `ebur128=peak=true:framelog=verbose,${levelsFilter(INPUT_LEVELS)}`,
      '-f', 'null', '-',
      ...OFFSET_SAMPLES('/w/offset-source.f32'),
    ]);
  });
});

describe('measureLoudnessArgs', () => {
  it("measures integrated loudness and true peak of our mux's tapped audio with ebur128, and writes its levels for the noise floor", () => {
    expect(measureLoudnessArgs(tapInput(formatFor('h264')), OUTPUT_LEVELS, '/w/offset-delivered.f32')).toEqual([
      '-hide_banner', '-nostdin', '-nostats', '-y',
      '-f', 'aac', '-protocol_whitelist', 'pipe', '-i', 'pipe:0',
      '-map', '0:a:0',
      '-af', `ebur128=peak=true:framelog=verbose,${levelsFilter(OUTPUT_LEVELS)}`,
      '-f', 'null', '-',
      ...OFFSET_SAMPLES('/w/offset-delivered.f32'),
    ]);
  });

  it('measures the first audio stream of our encoded file, reading it as a file only', () => {
    expect(measureLoudnessArgs(ownInput('/w/out.mp4'), OUTPUT_LEVELS, '/w/offset-delivered.f32').slice(4, 10)).toEqual(['-protocol_whitelist', 'file', '-i', '/w/out.mp4', '-map', '0:a:0']);
  });

});

// Decision 0093.
describe('keepStemsArgs and decodeStemsArgs', () => {
  it('writes the 4-channel stems as FLAC, reading only our own raw file', () => {
    expect(keepStemsArgs('/w/stems.s16le', '/w/stems.flac').join(' ')).toBe(
      `-hide_banner -nostdin -v error -y -f s16le -ar 48000 -ac 4 ${ownInput('/w/stems.s16le').join(' ')} -map 0:a -c:a flac -compression_level 0 -f flac /w/stems.flac`,
    );
  });

  it('reads kept stems back as 4-channel s16le on stdout, as a file only', () => {
    expect(decodeStemsArgs('/w/in.export-source').join(' ')).toBe(`-hide_banner -nostdin -v error ${ownInput('/w/in.export-source').join(' ')} -map 0:a:0 -f s16le -ar 48000 -ac 4 -c:a pcm_s16le pipe:1`);
  });
});

describe('muxArgs', () => {
  it('copies the picture of the fenced H.264 input into MP4 with the cleaned audio as 48 kHz mono AAC, faststart', () => {
    expect(muxArgs(plan('h264', { audioFilter: 'volume=2.00dB' }))).toEqual([
      '-hide_banner', '-nostdin', '-v', 'error', '-y',
      ...FENCED, '-i', '/w/in',
      '-f', 's16le', '-ar', '48000', '-ac', '1', '-protocol_whitelist', 'file', '-i', '/w/denoised.s16le',
      '-map', '0:V:0',
      '-map', '1:a:0',
      '-c:v', 'copy',
      '-af', 'volume=2.00dB',
      '-ar', '48000', '-ac', '1',
      '-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '128k',
      '-map_metadata', '0',
      '-f', 'tee', '[f=mp4:movflags=+faststart]/w/out|[select=v:f=streamhash:hash=sha256]/w/written.sha256',
      '-map', '0:V:0', '-c:v', 'copy', '-f', 'streamhash', '-hash', 'sha256', '/w/source.sha256',
    ]);
  });

  it.each(['hevc', 'av1', 'mpeg4'])('muxes %s exactly as H.264: MP4, AAC, faststart', (codec) => {
    expect(muxArgs(plan(codec))).toEqual(muxArgs(plan('h264')));
  });

  it.each(['vp8', 'vp9'])('copies %s into WebM with Opus and no MP4 flags', (codec) => {
    const args = muxArgs(plan(codec));
    expect(args.slice(args.indexOf('-c:v'), args.lastIndexOf('-map'))).toEqual([
      '-c:v', 'copy',
      '-ar', '48000', '-ac', '1',
      '-c:a', 'libopus', '-b:a', '96k',
      '-map_metadata', '0',
      '-f', 'tee', '[f=webm]/w/out|[select=v:f=streamhash:hash=sha256]/w/written.sha256',
    ]);
  });

  it('tapped, writes the same file and streams its encoded audio alone to stdout, through the tee muxer', () => {
    const plain = muxArgs(plan('h264', { audioFilter: 'volume=2.00dB' }));
    const tapped = muxArgs(plan('h264', { audioFilter: 'volume=2.00dB' }), true);
    const tee = plain.indexOf('tee') + 1;
    expect(tapped.slice(0, tee)).toEqual(plain.slice(0, tee));
    expect(tapped[tee]).toBe(`${plain[tee]}|[select=a:f=adts]pipe:1`);
    expect(tapped.slice(tee + 1)).toEqual(plain.slice(tee + 1));
    const vp9 = muxArgs(plan('vp9'), true);
    expect(vp9[vp9.indexOf('tee') + 1]).toBe('[f=webm]/w/out|[select=v:f=streamhash:hash=sha256]/w/written.sha256|[select=a:f=ogg]pipe:1');
    // The tee splits its outputs on | and unquotes: a path holding them is escaped.
    const escaped = muxArgs(plan('vp9', { outputPath: "/w/it's|here/out" }), true);
    expect(escaped[escaped.indexOf('tee') + 1]).toMatch(/^\[f=webm\]\/w\/it\\'s\\\|here\/out\|/);
  });

  it('reads the tap as the measuring input: the audio format forced, only the pipe protocol', () => {
    expect(tapInput(formatFor('h264'))).toEqual(['-f', 'aac', '-protocol_whitelist', 'pipe', '-i', 'pipe:0']);
    expect(tapInput(formatFor('vp8'))).toEqual(['-f', 'ogg', '-protocol_whitelist', 'pipe', '-i', 'pipe:0']);
  });

  it('maps only the first real video stream and the cleaned audio: other audio, subtitles and data are dropped', () => {
    const args = muxArgs(plan('h264'));
    const maps = args.flatMap((arg, i) => (arg === '-map' ? [args[i + 1]] : []));
    // The last is the source's picture again, only to hash its packets.
    expect(maps).toEqual(['0:V:0', '1:a:0', '0:V:0']);
  });

  it('mixes the low band given back into the raw audio before the audio filter', () => {
    const args = muxArgs(plan('h264', { audioFilter: 'volume=2.00dB', lowBand: { path: '/w/low.s16le', weight: 0.5 } }));
    expect(args.slice(args.indexOf('/w/denoised.s16le') + 1, args.lastIndexOf('-ar'))).toEqual([
      '-f', 's16le', '-ar', '48000', '-ac', '1', '-protocol_whitelist', 'file', '-i', '/w/low.s16le',
      '-map', '0:V:0',
      '-map', '[audio]',
      '-c:v', 'copy',
      '-filter_complex', '[1:a][2:a]amix=inputs=2:weights=1 0.5:normalize=0,volume=2.00dB[audio]',
    ]);
    expect(muxArgs(plan('h264', { lowBand: { path: '/w/low.s16le', weight: 1 } }))).toContain('[1:a][2:a]amix=inputs=2:weights=1 1:normalize=0[audio]');
  });

  it('applies no audio filter when loudness is not normalised', () => {
    expect(muxArgs(plan('h264'))).not.toContain('-af');
  });

  it('keeps the language of the original audio stream', () => {
    const args = muxArgs(plan('vp9', { language: 'fra' }));
    expect(args.slice(args.indexOf('-metadata:s:a:0'), args.indexOf('-metadata:s:a:0') + 2)).toEqual(['-metadata:s:a:0', 'language=fra']);
  });
});
