import type { TensorFormat } from './model-input';

// A segmentation model as the pipeline sees it: where it is, what it reads and what it returns.
export interface MattingModelSpec extends TensorFormat {
  name: string;
  path: string;
  // The input the model takes, in pixels; frames are resampled to it, whatever their shape.
  width: number;
  height: number;
  // 'probability': the output is already 0..1; 'logit': a sigmoid is applied.
  output: 'probability' | 'logit';
}

// Runs a model on one input tensor and returns the width*height foreground probabilities.
export interface Segmenter {
  readonly spec: MattingModelSpec;
  // Where it runs ('cpu', 'cuda'), for the logs.
  readonly executionProvider?: string;
  segment(input: Float32Array): Promise<Float32Array>;
}

// Variants of one model for different frame shapes (the person model has a square and a
// landscape one): a frame uses the variant whose shape is closest to its own. A near tie (4:3 lies
// halfway between 1:1 and 16:9) goes to the smaller input, which runs faster: on our 4:3 footage the
// two person variants give the same matte.
export function variantFor<T extends { spec: Pick<MattingModelSpec, 'width' | 'height'> }>(variants: readonly T[], width: number, height: number): T {
  const distance = (variant: T) => Math.abs(Math.log(variant.spec.width / variant.spec.height) - Math.log(width / height));
  const size = (variant: T) => variant.spec.width * variant.spec.height;
  return variants.reduce((best, variant) => {
    const closer = distance(best) - distance(variant);
    return closer > TIE || (closer > -TIE && size(variant) < size(best)) ? variant : best;
  });
}

const TIE = 0.01;

// The variant crops of a frame are seen by (decision 0070): the one with the most input pixels. A crop
// is cut around a person, whatever the frame's shape; the person model's landscape variant sees a
// whole person standing in a room in 144 rows and misses them where its square variant, with 256,
// does not.
export function cropVariant<T extends { spec: Pick<MattingModelSpec, 'width' | 'height'> }>(variants: readonly T[]): T {
  return variants.reduce((best, variant) => (variant.spec.width * variant.spec.height > best.spec.width * best.spec.height ? variant : best));
}
