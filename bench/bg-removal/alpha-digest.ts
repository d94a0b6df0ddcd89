import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMattingModels } from '../../apps/render-worker/src/matting/load-matting-models';
import { removeBackground } from '../../apps/render-worker/src/matting/remove-background';
import { numberArg, runBench } from '../support/bench-stack';
import { makeClip, type People } from './clips';

// bench/bg-removal/alpha-digest: a digest of every alpha frame whole background-removal jobs hand their
// encoder, per clip and refinement, with the real model (one thread, so its answers repeat). A change
// made for speed alone must print the same digests before and after it; the quality bench's figures,
// rounded to four places, cannot show a matte that moved by one level. Usage:
// npm run bench:matting-digest [-- --seconds 4]

const CLIPS: readonly { size: string; people: People }[] = [
  { size: '640x480', people: 'small' },
  { size: '640x480', people: 'two' },
  { size: '640x360', people: 'webcam' },
  { size: '1280x720', people: 'small' },
];

async function main(): Promise<void> {
  const seconds = numberArg('--seconds', 4);
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-digest-'));
  try {
    const models = await loadMattingModels({ cacheDir: join(dir, 'models'), executionProviders: ['cpu'], intraOpThreads: 1 });
    const segmenters = models.segmentersFor(true);
    console.log(`alpha digests, ${seconds} s clips, tracking on (sha256 of every alpha frame in order, first 16 hex digits)`);
    for (const { size, people } of CLIPS) {
      const clip = join(dir, `${size}-${people}.mp4`);
      await makeClip(clip, size, seconds, people);
      for (const refine of [false, true]) {
        const digest = createHash('sha256');
        let frames = 0;
        await removeBackground({
          inputPath: clip,
          workDir: join(dir, `work-${size}-${people}-${refine}`),
          options: { output_codec: 'vp9', refine_foreground_edges: refine },
          segmenters,
          maxSeconds: 3600,
          timeoutMs: 3_600_000,
          tracking: true,
          onMatte: (_index, alpha) => {
            digest.update(alpha);
            frames++;
          },
        });
        console.log(`  ${size.padEnd(9)} ${people.padEnd(7)} refine ${String(refine).padEnd(5)}  ${String(frames).padStart(4)} frames  ${digest.digest('hex').slice(0, 16)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
