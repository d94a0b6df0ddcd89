import { readFileSync } from 'node:fs';
import { decodeInt32 } from '../convert/tensor-data';
import { operatorName } from './operator-name';
import { readTfliteModel } from './read-tflite-model';
import { TensorType, TfliteSubgraph } from './tflite-model';
import { LANDSCAPE_MODEL, SQUARE_MODEL } from '../testing/selfie-models';

function mainSubgraph(path: string): TfliteSubgraph {
  const model = readTfliteModel(readFileSync(path));
  expect(model.subgraphs).toHaveLength(1);
  return model.subgraphs[0];
}

function operatorCounts(subgraph: TfliteSubgraph): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const operator of subgraph.operators) counts[operatorName(operator.opcode)] = (counts[operatorName(operator.opcode)] ?? 0) + 1;
  return counts;
}

function boundary(subgraph: TfliteSubgraph, indices: number[]) {
  return indices.map((index) => ({ name: subgraph.tensors[index].name, shape: subgraph.tensors[index].shape, type: subgraph.tensors[index].type }));
}

function operatorsNamed(subgraph: TfliteSubgraph, name: string) {
  return subgraph.operators.filter((operator) => operatorName(operator.opcode) === name);
}

// MobileNetV3-style encoder with squeeze-and-excitation blocks, fp16 weights, and a decoder that
// upsamples with RESIZE_BILINEAR and ends in MediaPipe's transpose convolution.
const SHARED_OPERATORS = {
  DEQUANTIZE: 110,
  CONV_2D: 43,
  HARD_SWISH: 11,
  RELU: 22,
  DEPTHWISE_CONV_2D: 11,
  LOGISTIC: 11,
  MUL: 10,
  ADD: 14,
  RESIZE_BILINEAR: 3,
  'custom Convolution2DTransposeBias': 1,
};

describe('readTfliteModel on the MediaPipe selfie segmentation models', () => {
  it('reads the square model: input_1 [1, 256, 256, 3] to activation_10 [1, 256, 256, 1], global pools as AVERAGE_POOL_2D', () => {
    const subgraph = mainSubgraph(SQUARE_MODEL.path);

    expect(boundary(subgraph, subgraph.inputs)).toEqual([{ name: 'input_1', shape: [1, 256, 256, 3], type: TensorType.FLOAT32 }]);
    expect(boundary(subgraph, subgraph.outputs)).toEqual([{ name: 'activation_10', shape: [1, 256, 256, 1], type: TensorType.FLOAT32 }]);
    expect(operatorCounts(subgraph)).toEqual({ ...SHARED_OPERATORS, AVERAGE_POOL_2D: 10 });
    for (const pool of operatorsNamed(subgraph, 'AVERAGE_POOL_2D')) {
      const [height, width] = subgraph.tensors[pool.inputs[0]].shape.slice(1, 3);
      expect(pool.options).toMatchObject({ kind: 'pool2d', filterH: height, filterW: width, activation: 0 });
    }
  });

  it('reads the landscape model: input_1 [1, 144, 256, 3] to segment_back [1, 144, 256, 1], global pools as MEAN keeping dims', () => {
    const subgraph = mainSubgraph(LANDSCAPE_MODEL.path);

    expect(boundary(subgraph, subgraph.inputs)).toEqual([{ name: 'input_1', shape: [1, 144, 256, 3], type: TensorType.FLOAT32 }]);
    expect(boundary(subgraph, subgraph.outputs)).toEqual([{ name: 'segment_back', shape: [1, 144, 256, 1], type: TensorType.FLOAT32 }]);
    expect(operatorCounts(subgraph)).toEqual({ ...SHARED_OPERATORS, MEAN: 10 });
    for (const mean of operatorsNamed(subgraph, 'MEAN')) {
      const axes = subgraph.tensors[mean.inputs[1]];
      expect(axes.type).toBe(TensorType.INT32);
      expect(decodeInt32(axes.data!)).toEqual([1, 2]);
      expect(mean.options).toEqual({ kind: 'reducer', keepDims: true });
    }
  });

  it.each([
    ['square', SQUARE_MODEL.path],
    ['landscape', LANDSCAPE_MODEL.path],
  ])('reads the %s model\'s fp16 weights, half-pixel resizes and 2x2 stride-2 SAME transpose convolution', (_, path) => {
    const subgraph = mainSubgraph(path);

    for (const dequantize of operatorsNamed(subgraph, 'DEQUANTIZE')) {
      const source = subgraph.tensors[dequantize.inputs[0]];
      expect({ type: source.type, constant: source.data !== undefined }).toEqual({ type: TensorType.FLOAT16, constant: true });
    }
    for (const resize of operatorsNamed(subgraph, 'RESIZE_BILINEAR')) {
      expect(resize.options).toEqual({ kind: 'resizeBilinear', alignCorners: false, halfPixelCenters: true });
    }
    const [transposeConv] = operatorsNamed(subgraph, 'custom Convolution2DTransposeBias');
    // Raw TfLiteTransposeConvParams: padding 1 (SAME), stride_width 2, stride_height 2.
    expect(Array.from(transposeConv.customOptions!)).toEqual([1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]);
    expect(transposeConv.inputs.map((index) => subgraph.tensors[index].shape)).toEqual([
      [1, subgraph.tensors[subgraph.inputs[0]].shape[1] / 2, 128, 16],
      [1, 2, 2, 16],
      [1],
    ]);
    const activations = new Set(subgraph.operators.map((operator) => (operator.options && 'activation' in operator.options ? operator.options.activation : 0)));
    expect([...activations]).toEqual([0]);
  });
});
