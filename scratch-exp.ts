import { removeBackground } from './apps/render-worker/src/matting/remove-background';
import type { Segmenter } from './apps/render-worker/src/matting/matting-model';

const W = 256, H = 256;
const fake: Segmenter = {
  spec: { name: 'fake', path: '', width: W, height: H, layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1], output: 'probability' },
  async segment() {
    const m = new Float32Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) m[y * W + x] = ((x - 128) ** 2 + (y - 128) ** 2) < 80 ** 2 ? 1 : 0;
    return m;
  },
};
async function main() {
  for (const codec of ['vp9', 'h264'] as const) for (const refine of [false, true]) {
    const t = Date.now();
    const out = await removeBackground({ inputPath: process.argv[2], workDir: `/tmp/exp/out-${codec}-${refine}`, options: { output_codec: codec, refine_foreground_edges: refine }, segmenters: [fake], maxSeconds: 60, timeoutMs: 600000 });
    const s = (Date.now() - t) / 1000;
    console.log(codec, refine, out.frames, 'frames', s.toFixed(2), 's', (out.frames / s).toFixed(1), 'fps', JSON.stringify(out.files.map((f) => f.path)));
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
