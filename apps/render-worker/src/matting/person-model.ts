import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { convertTfliteToOnnx } from '@vj/tflite-onnx';
import type { MattingModelSpec } from './matting-model';

// The built-in person model: MediaPipe selfie segmentation (Apache-2.0), shipped as TFLite in the
// npm package @mediapipe/selfie_segmentation and converted to ONNX by our own converter the first
// time a worker starts; the converted file is kept, named after what it was made from.

const PACKAGE = '@mediapipe/selfie_segmentation';

// Input: RGB / 255, converted to NCHW (no Transpose in the graph: 2 % of a run); output: a probability
// after the model's own sigmoid.
export const PERSON_MODEL_VARIANTS = [
  { file: 'selfie_segmentation.tflite', width: 256, height: 256 },
  { file: 'selfie_segmentation_landscape.tflite', width: 256, height: 144 },
] as const;

// Bump when the converter's output changes, so caches made by an older one are not used.
export const CONVERSION_REVISION = 2;

export async function preparePersonModels(cacheDir: string): Promise<MattingModelSpec[]> {
  await mkdir(cacheDir, { recursive: true });
  const packageDir = dirname(require.resolve(`${PACKAGE}/package.json`));
  return Promise.all(
    PERSON_MODEL_VARIANTS.map(async (variant) => {
      const tflite = await readFile(join(packageDir, variant.file));
      const digest = createHash('sha256').update(tflite).digest('hex').slice(0, 16);
      const path = join(cacheDir, `${variant.file.replace(/\.tflite$/, '')}-${digest}-r${CONVERSION_REVISION}.onnx`);
      if (!(await exists(path))) {
        // Written aside and renamed: a worker starting beside this one never reads half a file.
        const partial = `${path}.${process.pid}.partial`;
        try {
          await writeFile(partial, convertTfliteToOnnx(tflite, 'nchw'));
          await rename(partial, path);
        } finally {
          await rm(partial, { force: true });
        }
      }
      return {
        name: 'person',
        path,
        width: variant.width,
        height: variant.height,
        layout: 'nchw',
        mean: [0, 0, 0],
        std: [1, 1, 1],
        output: 'probability',
      } satisfies MattingModelSpec;
    }),
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
