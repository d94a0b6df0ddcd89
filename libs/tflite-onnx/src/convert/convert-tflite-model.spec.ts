import { onnx } from 'onnx-proto';
import { convertTfliteModelToOnnx } from './convert-tflite-model';
import { BuiltinOperator } from '../tflite/builtin-operator';
import { ActivationFunction, Padding, TensorType } from '../tflite/tflite-model';
import { randomArray } from '../testing/nd-array';
import { TfliteGraphBuilder, int32Bytes } from '../testing/tflite-graph-builder';
import { UnsupportedTfliteError } from '../unsupported-tflite-error';

function conversionError(build: (graph: TfliteGraphBuilder) => void): UnsupportedTfliteError {
  const graph = new TfliteGraphBuilder();
  build(graph);
  try {
    convertTfliteModelToOnnx(graph.build());
  } catch (error) {
    if (error instanceof UnsupportedTfliteError) return error;
    throw error;
  }
  throw new Error('the conversion succeeded');
}

describe('convertTfliteModelToOnnx', () => {
  it('keeps the TFLite input and output names with their NHWC shapes, NCHW inside between two Transposes', () => {
    const graph = new TfliteGraphBuilder();
    const x = graph.input('input_1', [1, 6, 8, 3]);
    const y = graph.output('activation_10', [1, 6, 8, 3]);
    graph.builtin(BuiltinOperator.LOGISTIC, [x], [y]);

    const model = onnx.ModelProto.decode(convertTfliteModelToOnnx(graph.build()));

    const dims = (info: onnx.IValueInfoProto) => info.type?.tensorType?.shape?.dim?.map((dim) => Number(dim.dimValue));
    expect(model.graph?.input?.map((info) => [info.name, dims(info)])).toEqual([['input_1', [1, 6, 8, 3]]]);
    expect(model.graph?.output?.map((info) => [info.name, dims(info)])).toEqual([['activation_10', [1, 6, 8, 3]]]);
    expect(model.graph?.node?.map((node) => node.opType)).toEqual(['Transpose', 'Sigmoid', 'Transpose']);
    expect(model.opsetImport?.map((opset) => [opset.domain, Number(opset.version)])).toEqual([['', 17]]);
    expect(Number(model.irVersion)).toBe(8);
  });

  it('declares rank-4 inputs and outputs NCHW, under their TFLite names, with no Transpose, when asked to', () => {
    const graph = new TfliteGraphBuilder();
    const x = graph.input('input_1', [1, 6, 8, 3]);
    const y = graph.output('activation_10', [1, 6, 8, 3]);
    graph.builtin(BuiltinOperator.LOGISTIC, [x], [y]);

    const model = onnx.ModelProto.decode(convertTfliteModelToOnnx(graph.build(), 'nchw'));

    const dims = (info: onnx.IValueInfoProto) => info.type?.tensorType?.shape?.dim?.map((dim) => Number(dim.dimValue));
    expect(model.graph?.input?.map((info) => [info.name, dims(info)])).toEqual([['input_1', [1, 3, 6, 8]]]);
    expect(model.graph?.output?.map((info) => [info.name, dims(info)])).toEqual([['activation_10', [1, 3, 6, 8]]]);
    expect(model.graph?.node?.map((node) => [node.opType, node.input, node.output])).toEqual([['Sigmoid', ['input_1'], ['activation_10']]]);
  });

  it('folds float16 DEQUANTIZE into float32 initializers, leaving no node for it', () => {
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', [1, 5, 7, 3]);
    const half = graph.float16Constant('b', randomArray([3], 1));
    const b = graph.activation('b_dequantize', [3]);
    const y = graph.output('y', [1, 5, 7, 3]);
    graph.builtin(BuiltinOperator.DEQUANTIZE, [half], [b]).builtin(BuiltinOperator.ADD, [x, b], [y], { kind: 'add', activation: ActivationFunction.NONE });

    const model = onnx.ModelProto.decode(convertTfliteModelToOnnx(graph.build()));

    expect(model.graph?.node?.map((node) => node.opType)).toEqual(['Transpose', 'Add', 'Transpose']);
    expect(model.graph?.initializer?.map((tensor) => [tensor.dataType, tensor.dims?.map(Number)])).toEqual([[onnx.TensorProto.DataType.FLOAT, [1, 3, 1, 1]]]);
  });

  it('names an unsupported builtin operator, its index and its output', () => {
    const error = conversionError((graph) => {
      const x = graph.input('x', [1, 4, 4, 3]);
      const h = graph.activation('h', [1, 4, 4, 3]);
      graph.builtin(BuiltinOperator.RELU, [x], [h]).builtin(BuiltinOperator.RESHAPE, [h], [graph.output('flat', [1, 48])]);
    });

    expect(error.message).toBe('TFLite operator RESHAPE (#1, output "flat"): operator not supported by @vj/tflite-onnx');
    expect(error.subject).toBe('operator RESHAPE (#1, output "flat")');
  });

  it('names a builtin code beyond the known table by number', () => {
    const error = conversionError((graph) => {
      graph.builtin(150, [graph.input('x', [1, 4])], [graph.output('y', [1, 4])]);
    });

    expect(error.message).toContain('operator builtin code 150 (#0');
  });

  it('names an unsupported custom operator', () => {
    const error = conversionError((graph) => {
      graph.custom('MaxPoolingWithArgmax2D', [graph.input('x', [1, 4, 4, 3])], [graph.output('y', [1, 2, 2, 3])], new Uint8Array());
    });

    expect(error.message).toContain('operator custom MaxPoolingWithArgmax2D (#0');
  });

  it('refuses a fused activation it cannot express (SIGN_BIT)', () => {
    const error = conversionError((graph) => {
      const x = graph.input('x', [1, 4, 4, 3]);
      graph.builtin(BuiltinOperator.ADD, [x, x], [graph.output('y', [1, 4, 4, 3])], { kind: 'add', activation: ActivationFunction.SIGN_BIT });
    });

    expect(error.message).toContain('operator ADD (#0, output "y"): fused activation SIGN_BIT is not supported');
  });

  it('refuses DEQUANTIZE of int8 data', () => {
    const error = conversionError((graph) => {
      const q = graph.activation('q', [4], TensorType.INT8);
      graph.builtin(BuiltinOperator.DEQUANTIZE, [q], [graph.output('y', [4])]);
    });

    expect(error.message).toContain('operator DEQUANTIZE (#0, output "y"): only constant FLOAT16 inputs are supported');
  });

  it('refuses a convolution whose filter is not a constant', () => {
    const error = conversionError((graph) => {
      const [x, w] = [graph.input('x', [1, 4, 4, 3]), graph.input('w', [2, 1, 1, 3])];
      graph.builtin(BuiltinOperator.CONV_2D, [x, w, -1], [graph.output('y', [1, 4, 4, 2])], {
        kind: 'conv2d',
        padding: Padding.SAME,
        strideH: 1,
        strideW: 1,
        dilationH: 1,
        dilationW: 1,
        activation: ActivationFunction.NONE,
      });
    });

    expect(error.message).toContain('the filter "w" must be a constant');
  });

  it('refuses transpose-convolution options that are not a TfLiteTransposeConvParams struct', () => {
    const error = conversionError((graph) => {
      const x = graph.input('x', [1, 4, 4, 3]);
      const [w, b] = [graph.constant('w', randomArray([1, 2, 2, 3], 1)), graph.constant('b', randomArray([1], 2))];
      graph.custom('Convolution2DTransposeBias', [x, w, b], [graph.output('y', [1, 8, 8, 1])], int32Bytes([0, 2, 2]));
    });

    expect(error.message).toContain('custom options are not a TfLiteTransposeConvParams struct');
  });

  it('refuses a graph input that is not float32', () => {
    const error = conversionError((graph) => {
      const x = graph.input('ids', [1, 4], TensorType.INT32);
      graph.builtin(BuiltinOperator.RELU, [x], [graph.output('y', [1, 4])]);
    });

    expect(error.message).toBe('TFLite input "ids": has type INT32; only FLOAT32 graph inputs and outputs are supported');
  });
});
