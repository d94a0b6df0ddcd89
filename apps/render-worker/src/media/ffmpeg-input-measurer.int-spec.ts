import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FfmpegInputMeasurer } from './ffmpeg-input-measurer';
import { probeMedia } from './probe';
import { ProcessRunner } from './process-runner';

describe('FfmpegInputMeasurer with the real ffmpeg and ffprobe', () => {
  let dir: string;
  const measurer = new FfmpegInputMeasurer(new ProcessRunner(), { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
  const measure = (path: string) => measurer.measure(path, 60, new AbortController().signal);

  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'vj-measurer-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures the billable seconds and hands on the probe it took, for the processor to open the input with', async () => {
    const path = join(dir, 'clip.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:v', 'libx264', '-c:a', 'aac', '-shortest', '-y', path]);
    const measured = await measure(path);
    expect(measured).toMatchObject({ seconds: expect.closeTo(2, 1), videoFrames: 50, probe: { video: { width: 160, height: 120 } } });
  });

  it("reports the probe's refusal when the file is not a video, as when the probe ran first", async () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'not a video at all\n'.repeat(100));
    const probeAlone = (await probeMedia(new ProcessRunner(), { ffprobePath: 'ffprobe', inputPath: path, timeoutMs: 30_000 }).catch((error: unknown) => error)) as Error;
    expect(probeAlone).toMatchObject({ code: 'invalid_file' });
    await expect(measure(path)).rejects.toMatchObject({ code: 'invalid_file', message: probeAlone.message });
  });
});
