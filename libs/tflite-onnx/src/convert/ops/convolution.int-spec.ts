/** @jest-environment ./test/onnx-test-environment.cjs */
import { convertTfliteModelToOnnx } from '../convert-tflite-model';
import { BuiltinOperator } from '../../tflite/builtin-operator';
import { ActivationFunction, Padding } from '../../tflite/tflite-model';
import { NdArray, expectClose, randomArray } from '../../testing/nd-array';
import { ReferencePadding, activations, conv2d, depthwiseConv2d, map } from '../../testing/nhwc-reference';
import { runOnnx } from '../../testing/run-onnx';
import { TfliteGraphBuilder } from '../../testing/tflite-graph-builder';

interface ConvCase {
  inputShape?: number[];
  filterShape: number[];
  padding: ReferencePadding;
  strideHW: [number, number];
  dilationHW?: [number, number];
  activation?: ActivationFunction;
  bias?: boolean;
}

const REFERENCE_ACTIVATION: Record<number, (x: number) => number> = {
  [ActivationFunction.NONE]: (x) => x,
  [ActivationFunction.RELU]: activations.relu,
  [ActivationFunction.RELU6]: activations.relu6,
  [ActivationFunction.RELU_N1_TO_1]: activations.reluN1To1,
  [ActivationFunction.TANH]: activations.tanh,
};

async function checkConv(kind: 'conv' | 'depthwise', testCase: ConvCase): Promise<void> {
  const { filterShape, padding, strideHW, dilationHW = [1, 1], activation = ActivationFunction.NONE, bias: withBias = true } = testCase;
  const input = randomArray(testCase.inputShape ?? [1, 5, 7, 3], 1);
  const filter = randomArray(filterShape, 2);
  const bias = randomArray([filterShape[kind === 'conv' ? 0 : 3]], 3);
  const reference = kind === 'conv' ? conv2d : depthwiseConv2d;
  const expected = map(reference(input, filter, withBias ? bias : undefined, { padding, strideHW, dilationHW }), REFERENCE_ACTIVATION[activation]);

  const graph = new TfliteGraphBuilder();
  const x = graph.input('x', input.shape);
  const y = graph.output('y', expected.shape);
  const inputs = [x, graph.constant('filter', filter), withBias ? graph.constant('bias', bias) : -1];
  const common = {
    padding: padding === 'SAME' ? Padding.SAME : Padding.VALID,
    strideH: strideHW[0],
    strideW: strideHW[1],
    dilationH: dilationHW[0],
    dilationW: dilationHW[1],
    activation,
  };
  if (kind === 'conv') graph.builtin(BuiltinOperator.CONV_2D, inputs, [y], { kind: 'conv2d', ...common });
  else graph.builtin(BuiltinOperator.DEPTHWISE_CONV_2D, inputs, [y], { kind: 'depthwiseConv2d', depthMultiplier: filterShape[3] / input.shape[3], ...common });

  const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });
  expectClose(outputs.y, expected);
}

describe('CONV_2D', () => {
  it.each<[string, ConvCase]>([
    ['3x3, SAME, stride 1', { filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [1, 1] }],
    ['3x3, SAME, stride 2 on odd sizes', { filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [2, 2] }],
    ['3x3, SAME, stride 2 on even sizes (one pad row/column, at the bottom/right)', { inputShape: [1, 6, 8, 3], filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [2, 2] }],
    ['2x2, SAME, stride 1 (even kernel: all padding at the bottom/right)', { filterShape: [2, 2, 2, 3], padding: 'SAME', strideHW: [1, 1] }],
    ['3x2, VALID, stride 2x1', { filterShape: [4, 3, 2, 3], padding: 'VALID', strideHW: [2, 1] }],
    ['1x1, VALID', { filterShape: [5, 1, 1, 3], padding: 'VALID', strideHW: [1, 1] }],
    ['3x3, SAME, dilation 2', { filterShape: [2, 3, 3, 3], padding: 'SAME', strideHW: [1, 1], dilationHW: [2, 2] }],
    ['without a bias input', { filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [1, 1], bias: false }],
    ['grouped (filter with half the input channels)', { inputShape: [1, 5, 7, 4], filterShape: [6, 3, 3, 2], padding: 'SAME', strideHW: [1, 1] }],
    ['fused RELU', { filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [1, 1], activation: ActivationFunction.RELU }],
    ['fused RELU6', { filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [1, 1], activation: ActivationFunction.RELU6 }],
    ['fused RELU_N1_TO_1', { filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [1, 1], activation: ActivationFunction.RELU_N1_TO_1 }],
    ['fused TANH', { filterShape: [4, 3, 3, 3], padding: 'SAME', strideHW: [2, 2], activation: ActivationFunction.TANH }],
  ])('matches the NHWC reference: %s', (_, testCase) => checkConv('conv', testCase));
});

describe('DEPTHWISE_CONV_2D', () => {
  it.each<[string, ConvCase]>([
    ['3x3, SAME, stride 1', { filterShape: [1, 3, 3, 3], padding: 'SAME', strideHW: [1, 1] }],
    ['5x5, SAME, stride 2 (padding split 1 before, 2 after)', { inputShape: [1, 6, 8, 3], filterShape: [1, 5, 5, 3], padding: 'SAME', strideHW: [2, 2] }],
    ['depth multiplier 2, VALID', { filterShape: [1, 3, 3, 6], padding: 'VALID', strideHW: [1, 1] }],
    ['depth multiplier 2, SAME, stride 2, dilation 2', { filterShape: [1, 3, 2, 6], padding: 'SAME', strideHW: [2, 2], dilationHW: [2, 2] }],
    ['fused RELU6', { filterShape: [1, 3, 3, 3], padding: 'SAME', strideHW: [1, 1], activation: ActivationFunction.RELU6 }],
  ])('matches the NHWC reference: %s', (_, testCase) => checkConv('depthwise', testCase));
});

describe('DEQUANTIZE', () => {
  it('folds float16 weights into float32 initializers feeding a convolution', async () => {
    const input = randomArray([1, 5, 7, 3], 1);
    const filter: NdArray = randomArray([4, 3, 3, 3], 2);
    const bias = randomArray([4], 3);
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', input.shape);
    const y = graph.output('y', [1, 5, 7, 4]);
    const [filter16, filter32] = [graph.float16Constant('filter', filter), graph.activation('filter_dequantize', filter.shape)];
    const [bias16, bias32] = [graph.float16Constant('bias', bias), graph.activation('bias_dequantize', bias.shape)];
    graph
      .builtin(BuiltinOperator.DEQUANTIZE, [bias16], [bias32])
      .builtin(BuiltinOperator.DEQUANTIZE, [filter16], [filter32])
      .builtin(BuiltinOperator.CONV_2D, [x, filter32, bias32], [y], {
        kind: 'conv2d',
        padding: Padding.SAME,
        strideH: 1,
        strideW: 1,
        dilationH: 1,
        dilationW: 1,
        activation: ActivationFunction.NONE,
      });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, conv2d(input, filter, bias, { padding: 'SAME', strideHW: [1, 1] }));
  });
});
