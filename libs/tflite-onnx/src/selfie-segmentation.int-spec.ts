/** @jest-environment ./test/onnx-test-environment.cjs */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { convertTfliteToOnnx } from './convert/convert-tflite-model';
import { transposeData, NHWC_TO_NCHW } from './convert/layout';
import { expectClose, NdArray, ndArray, randomArray } from './testing/nd-array';
import { runOnnx } from './testing/run-onnx';
import { LANDSCAPE_MODEL, SQUARE_MODEL, SelfieModel } from './testing/selfie-models';

// The whole converted MediaPipe selfie segmentation models, on the two portraits of ../shared/media
// beside the repository (absent from a plain clone: those tests then skip).
const IMAGES_DIR = resolve(__dirname, '../../../../shared/media/image');
const imagesPresent = existsSync(IMAGES_DIR);
if (!imagesPresent) console.warn(`selfie segmentation portrait tests skipped: ${IMAGES_DIR} is absent (real test media live outside the repo)`);
const describeWithImages = imagesPresent ? describe : describe.skip;

const MODELS = [SQUARE_MODEL, LANDSCAPE_MODEL].map((model) => ({ ...model, name: basename(model.path) }));

async function segment(model: SelfieModel, frame: NdArray): Promise<NdArray> {
  const onnxModel = convertTfliteToOnnx(readFileSync(model.path));
  return (await runOnnx(onnxModel, { [model.input]: frame }))[model.output];
}

// The picture squeezed to the model's input size, RGB scaled to [0, 1] as MediaPipe feeds it.
function decodeFrame(image: string, width: number, height: number): NdArray {
  const rgb = execFileSync('ffmpeg', ['-v', 'error', '-i', join(IMAGES_DIR, image), '-vf', `scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    timeout: 30_000,
    maxBuffer: width * height * 3 + 1,
  });
  return ndArray([1, height, width, 3], Float32Array.from(rgb, (value) => value / 255));
}

// Regions as fractions of the frame [left, top, right, bottom], chosen by looking at the pictures.
type Region = [number, number, number, number];

function meanOver(mask: NdArray, [left, top, right, bottom]: Region): number {
  const [, height, width] = mask.shape;
  let sum = 0;
  let count = 0;
  for (let y = Math.round(top * height); y < Math.round(bottom * height); y++) {
    for (let x = Math.round(left * width); x < Math.round(right * width); x++) {
      sum += mask.data[y * width + x];
      count++;
    }
  }
  return sum / count;
}

const PORTRAITS: { image: string; person: Record<string, Region>; background: Record<string, Region> }[] = [
  {
    image: 'astronaut.png',
    person: { face: [0.37, 0.12, 0.51, 0.29], 'orange suit': [0.16, 0.51, 0.51, 0.82] },
    background: { 'space shuttle': [0.7, 0, 1, 0.43], 'flag, top left': [0, 0, 0.16, 0.31] },
  },
  {
    image: 'grace_hopper.jpg',
    person: { face: [0.39, 0.23, 0.63, 0.47], 'uniform jacket': [0.23, 0.66, 0.78, 0.98] },
    background: { 'flag, top left': [0, 0, 0.23, 0.43], 'wall, top right': [0.78, 0, 1, 0.47] },
  },
];

describe('the converted selfie segmentation models', () => {
  it.each(MODELS)('$name runs in onnxruntime-node with NHWC input $input and gives a [1, H, W, 1] mask in [0, 1]', async (model) => {
    const mask = await segment(model, randomArray([1, model.height, model.width, 3], 7, 1));

    expect(mask.shape).toEqual([1, model.height, model.width, 1]);
    expect(mask.data.every((value) => value >= 0 && value <= 1)).toBe(true);
  });

  it.each(MODELS)('$name converted with NCHW input and output gives the same mask for the same picture', async (model) => {
    const frame = randomArray([1, model.height, model.width, 3], 11, 1);
    const planar = ndArray([1, 3, model.height, model.width], Float32Array.from(transposeData(frame.data, frame.shape, NHWC_TO_NCHW)));

    const nchw = convertTfliteToOnnx(readFileSync(model.path), 'nchw');
    const mask = (await runOnnx(nchw, { [model.input]: planar }))[model.output];

    expect(mask.shape).toEqual([1, 1, model.height, model.width]);
    expectClose(mask, ndArray(mask.shape, (await segment(model, frame)).data), 1e-6);
  });
});

describeWithImages('the converted selfie segmentation models on portraits', () => {
  const cases = PORTRAITS.flatMap((portrait) => MODELS.map((model) => ({ ...portrait, model, name: model.name })));

  it.each(cases)('$name covers the person in $image and leaves the background out', async ({ image, person, background, model }) => {
    const mask = await segment(model, decodeFrame(image, model.width, model.height));

    const coverage = (regions: Record<string, Region>) => Object.entries(regions).map(([name, region]) => [name, meanOver(mask, region)] as const);
    // Listing the failing regions with their coverage makes a failure readable.
    expect(coverage(person).filter(([, value]) => !(value > 0.8))).toEqual([]);
    expect(coverage(background).filter(([, value]) => !(value < 0.2))).toEqual([]);
  });
});
