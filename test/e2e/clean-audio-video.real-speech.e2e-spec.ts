import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CleanAudioVideoReport } from '@vj/sdk';
import { siSdr } from '../../apps/render-worker/src/media/si-sdr';
import { useE2eStack } from '../support/e2e-stack';
import { decodeAudio, loudness, videoPacketHashes } from '../support/media-tools';
import { SHARED_MEDIA_DIR, sharedMediaAvailable } from '../support/shared-media';

const run = promisify(execFile);

// Real read speech (LibriVox, public domain) mixed with a real noise recording (freesound 573577, CC0)
// at a known SNR, over a real webcam clip (Intel IoT DevKit sample videos, CC BY 4.0): see
// ../shared/media/README.md. The clean speech is the reference for SI-SDR.
const SPEECH = 'audio/sense_and_sensibility_01_austen_64kb-0870.wav';
const NOISE = 'audio/noise_freesound_573577_cc0.wav';
const VIDEO = 'video/again.mkv';

function rms(signal: Float32Array): number {
  let sum = 0;
  for (const x of signal) sum += x * x;
  return Math.sqrt(sum / signal.length);
}

// speech + noise scaled so that speech energy / noise energy = snrDb; the noise loops to the speech's length.
function mix(speech: Float32Array, noise: Float32Array, snrDb: number): Float32Array {
  const looped = Float32Array.from(speech, (_, i) => noise[i % noise.length]);
  const gain = rms(speech) / (rms(looped) * 10 ** (snrDb / 20));
  return Float32Array.from(speech, (s, i) => s + gain * looped[i]);
}

const describeWithMedia = sharedMediaAvailable() ? describe : describe.skip;

describeWithMedia('clean-audio-video on real noisy speech (../shared/media)', () => {
  const e2e = useE2eStack('e2e-clean-audio-real-speech');

  it.each([0, 5])('raises SI-SDR by at least 6 dB at %i dB SNR, copies the picture and lands on target loudness', async (snrDb) => {
    const speech = await decodeAudio(join(SHARED_MEDIA_DIR, SPEECH));
    const noise = await decodeAudio(join(SHARED_MEDIA_DIR, NOISE));
    const noisy = mix(speech, noise, snrDb);
    const rawPath = join(e2e.dir, `mix-${snrDb}.f32`);
    writeFileSync(rawPath, Buffer.from(noisy.buffer));
    const input = join(e2e.dir, `noisy-speech-${snrDb}.mp4`);
    const seconds = (speech.length / 48000).toFixed(3);
    await run('ffmpeg', [
      '-v', 'error', '-y', '-stream_loop', '-1', '-i', join(SHARED_MEDIA_DIR, VIDEO),
      '-f', 'f32le', '-ar', '48000', '-ac', '1', '-i', rawPath,
      '-map', '0:v', '-map', '1:a', '-t', seconds, '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-b:a', '192k', input,
    ]);

    const job = await e2e.runCleanAudio({ video_url: await e2e.upload(input, 'video/mp4') });
    expect(job.status).toBe('COMPLETED');
    const output = await e2e.download(job.result!.video.url, `clean-${snrDb}.mp4`);

    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));
    const [before, after] = [await decodeAudio(input), await decodeAudio(output)];
    const n = Math.min(speech.length, before.length, after.length);
    const improvement = siSdr(after.subarray(0, n), speech.subarray(0, n)) - siSdr(before.subarray(0, n), speech.subarray(0, n));
    console.log(`SI-SDR at ${snrDb} dB SNR: +${improvement.toFixed(1)} dB`);
    expect(improvement).toBeGreaterThanOrEqual(6);
    expect(Math.abs((await loudness(output)).integrated - -19)).toBeLessThanOrEqual(1);
    // Its quality report's lip sync (decision 0098): speech tells the offset, and it is none.
    const { body: report } = await e2e.api.request<CleanAudioVideoReport>('GET', `/v1/clean-audio-video/${job.job_id}/report`, 'CleanAudioVideoReport');
    expect(Math.abs(report.audio_offset_ms ?? NaN)).toBeLessThanOrEqual(1);
  });
});
