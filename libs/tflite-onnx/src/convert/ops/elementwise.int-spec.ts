/** @jest-environment ./test/onnx-test-environment.cjs */
import { convertTfliteModelToOnnx } from '../convert-tflite-model';
import { BuiltinOperator } from '../../tflite/builtin-operator';
import { ActivationFunction } from '../../tflite/tflite-model';
import { NdArray, expectClose, randomArray } from '../../testing/nd-array';
import { activations, broadcast, map } from '../../testing/nhwc-reference';
import { runOnnx } from '../../testing/run-onnx';
import { TfliteGraphBuilder } from '../../testing/tflite-graph-builder';

const add = (a: number, b: number): number => a + b;
const multiply = (a: number, b: number): number => a * b;

describe('ADD and MUL', () => {
  // [name, operator, left shape, right shape, whether the right operand is a constant]
  it.each<[string, 'ADD' | 'MUL', number[], number[], boolean]>([
    ['ADD of two activations of the same shape', 'ADD', [1, 5, 7, 3], [1, 5, 7, 3], false],
    ['MUL by a per-channel constant of shape [C]', 'MUL', [1, 5, 7, 3], [3], true],
    ['ADD of a constant of shape [1, 1, 1, C]', 'ADD', [1, 5, 7, 3], [1, 1, 1, 3], true],
    ['MUL by a constant of shape [W, C]', 'MUL', [1, 5, 7, 3], [7, 3], true],
    ['ADD of a scalar constant', 'ADD', [1, 5, 7, 3], [], true],
    ['MUL by a constant of shape [H, 1, C]', 'MUL', [1, 5, 7, 3], [5, 1, 3], true],
    ['MUL by an activation of shape [1, 1, 1, C] (squeeze-and-excitation)', 'MUL', [1, 5, 7, 3], [1, 1, 1, 3], false],
    ['ADD of an activation of shape [C]', 'ADD', [1, 5, 7, 3], [3], false],
    ['MUL of two rank-2 activations', 'MUL', [5, 3], [1, 3], false],
  ])('matches numpy-style broadcasting in NHWC: %s', async (_, operator, leftShape, rightShape, constant) => {
    const [left, right] = [randomArray(leftShape, 1), randomArray(rightShape, 2)];
    const expected = broadcast(left, right, operator === 'ADD' ? add : multiply);
    const graph = new TfliteGraphBuilder();
    const a = graph.input('a', leftShape);
    const b = constant ? graph.constant('b', right) : graph.input('b', rightShape);
    const y = graph.output('y', expected.shape);
    graph.builtin(BuiltinOperator[operator], [a, b], [y], { kind: operator === 'ADD' ? 'add' : 'mul', activation: ActivationFunction.NONE });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), constant ? { a: left } : { a: left, b: right });

    expectClose(outputs.y, expected);
  });

  it.each<['ADD' | 'MUL', ActivationFunction, (x: number) => number]>([
    ['ADD', ActivationFunction.RELU6, activations.relu6],
    ['MUL', ActivationFunction.RELU, activations.relu],
  ])('%s applies its fused activation %s', async (operator, activation, reference) => {
    const [left, right] = [randomArray([1, 5, 7, 3], 1, 8), randomArray([3], 2)];
    const graph = new TfliteGraphBuilder();
    const a = graph.input('a', left.shape);
    const y = graph.output('y', left.shape);
    graph.builtin(BuiltinOperator[operator], [a, graph.constant('b', right)], [y], { kind: operator === 'ADD' ? 'add' : 'mul', activation });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { a: left });

    expectClose(outputs.y, map(broadcast(left, right, operator === 'ADD' ? add : multiply), reference));
  });

  it('takes a float16 constant through DEQUANTIZE', async () => {
    const [left, right] = [randomArray([1, 5, 7, 3], 1), randomArray([3], 2)];
    const graph = new TfliteGraphBuilder();
    const a = graph.input('a', left.shape);
    const half = graph.float16Constant('b', right);
    const b = graph.activation('b_dequantize', right.shape);
    const y = graph.output('y', left.shape);
    graph.builtin(BuiltinOperator.DEQUANTIZE, [half], [b]).builtin(BuiltinOperator.ADD, [a, b], [y], { kind: 'add', activation: ActivationFunction.NONE });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { a: left });

    expectClose(outputs.y, broadcast(left, right, add));
  });
});

describe('RELU, LOGISTIC and HARD_SWISH', () => {
  it.each<['RELU' | 'LOGISTIC' | 'HARD_SWISH', (x: number) => number, number[]]>([
    ['RELU', activations.relu, [1, 5, 7, 3]],
    ['LOGISTIC', activations.sigmoid, [1, 5, 7, 3]],
    ['HARD_SWISH', activations.hardSwish, [1, 5, 7, 3]],
    ['HARD_SWISH', activations.hardSwish, [4, 6]],
  ])('%s matches the reference on shape %j', async (operator, reference, shape) => {
    // +-8 reaches both saturated ends of HARD_SWISH and LOGISTIC.
    const input: NdArray = randomArray(shape, 1, 8);
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', shape);
    const y = graph.output('y', shape);
    graph.builtin(BuiltinOperator[operator], [x], [y]);

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, map(input, reference));
  });

  it('chains operators in the NCHW interior without extra transposes changing results', async () => {
    const input = randomArray([1, 5, 7, 3], 1, 8);
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', input.shape);
    const h = graph.activation('h', input.shape);
    const y = graph.output('y', input.shape);
    graph.builtin(BuiltinOperator.HARD_SWISH, [x], [h]).builtin(BuiltinOperator.LOGISTIC, [h], [y]);

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, map(map(input, activations.hardSwish), activations.sigmoid));
  });
});
