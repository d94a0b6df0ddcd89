import { Builder } from 'flatbuffers';
import { readTfliteModel } from './read-tflite-model';
import { ActivationFunction, Padding, TensorType, TfliteModel } from './tflite-model';

// A hand-made flatbuffer in the layout of tensorflow/lite/schema/schema.fbs; slots are field ids.
function syntheticModel(): Uint8Array {
  const b = new Builder(1024);
  const int32s = (values: number[]): number => {
    b.startVector(4, values.length, 4);
    for (const value of [...values].reverse()) b.addInt32(value);
    return b.endVector();
  };
  const offsets = (values: number[]): number => {
    b.startVector(4, values.length, 4);
    for (const value of [...values].reverse()) b.addOffset(value);
    return b.endVector();
  };
  const table = (fields: (() => void)[], count: number): number => {
    b.startObject(count);
    fields.forEach((add) => add());
    return b.endObject();
  };

  const customName = b.createString('Convolution2DTransposeBias');
  const operatorCodes = offsets([
    // A newer writer: the real code in builtin_code, 127 (placeholder) in the deprecated byte.
    table([() => b.addFieldInt8(0, 127, 0), () => b.addFieldInt32(3, 150, 0)], 4),
    // An older writer: only the deprecated byte (CONV_2D).
    table([() => b.addFieldInt8(0, 3, 0)], 4),
    table([() => b.addFieldInt8(0, 32, 0), () => b.addFieldOffset(1, customName, 0), () => b.addFieldInt32(3, 32, 0)], 4),
    table([() => b.addFieldInt8(0, 23, 0), () => b.addFieldInt32(3, 23, 0)], 4),
  ]);

  const weights = new Uint8Array(new Float32Array([1.5, -2]).buffer);
  const weightsData = b.createByteVector(weights);
  const buffers = offsets([table([], 3), table([() => b.addFieldOffset(0, weightsData, 0)], 3)]);

  const tensor = (name: string, shape: number[], buffer: number): number => {
    const [nameOffset, shapeOffset] = [b.createString(name), int32s(shape)];
    return table([() => b.addFieldOffset(0, shapeOffset, 0), () => b.addFieldInt8(1, TensorType.FLOAT32, 0), () => b.addFieldInt32(2, buffer, 0), () => b.addFieldOffset(3, nameOffset, 0)], 5);
  };
  const tensors = offsets([tensor('x', [1, 4, 4, 2], 0), tensor('w', [2], 1), tensor('y', [1, 2, 2, 2], 0)]);

  const conv2dOptions = table([() => b.addFieldInt8(0, Padding.VALID, 0), () => b.addFieldInt32(1, 2, 0), () => b.addFieldInt32(2, 3, 0), () => b.addFieldInt8(3, ActivationFunction.RELU6, 0)], 6);
  // new_height and new_width (fields 0 and 1) are deprecated and left out, as writers do.
  const resizeOptions = table([() => b.addFieldInt8(3, 1, 0)], 4);
  const customOptions = b.createByteVector(new Uint8Array([1, 0, 0, 0]));
  const operator = (opcode: number, inputs: number[], outputs: number[], extra: (() => void)[]): number => {
    const [inputsOffset, outputsOffset] = [int32s(inputs), int32s(outputs)];
    return table([() => b.addFieldInt32(0, opcode, 0), () => b.addFieldOffset(1, inputsOffset, 0), () => b.addFieldOffset(2, outputsOffset, 0), ...extra], 6);
  };
  const operators = offsets([
    operator(1, [0, 1, -1], [2], [() => b.addFieldInt8(3, 1, 0), () => b.addFieldOffset(4, conv2dOptions, 0)]),
    operator(2, [2], [2], [() => b.addFieldOffset(5, customOptions, 0)]),
    operator(3, [2], [2], [() => b.addFieldInt8(3, 15, 0), () => b.addFieldOffset(4, resizeOptions, 0)]),
    operator(0, [2], [2], []),
  ]);
  const [inputs, outputs, subgraphName] = [int32s([0]), int32s([2]), b.createString('main')];
  const subgraph = table(
    [() => b.addFieldOffset(0, tensors, 0), () => b.addFieldOffset(1, inputs, 0), () => b.addFieldOffset(2, outputs, 0), () => b.addFieldOffset(3, operators, 0), () => b.addFieldOffset(4, subgraphName, 0)],
    5,
  );
  const [subgraphs, description] = [offsets([subgraph]), b.createString('synthetic')];
  const model = table(
    [() => b.addFieldInt32(0, 3, 0), () => b.addFieldOffset(1, operatorCodes, 0), () => b.addFieldOffset(2, subgraphs, 0), () => b.addFieldOffset(3, description, 0), () => b.addFieldOffset(4, buffers, 0)],
    5,
  );
  b.finish(model, 'TFL3');
  return b.asUint8Array();
}

describe('readTfliteModel', () => {
  it('reads tensors, resolved buffers, operator codes and builtin and custom options', () => {
    const expected: TfliteModel = {
      version: 3,
      description: 'synthetic',
      subgraphs: [
        {
          name: 'main',
          tensors: [
            { name: 'x', shape: [1, 4, 4, 2], type: TensorType.FLOAT32 },
            { name: 'w', shape: [2], type: TensorType.FLOAT32, data: new Uint8Array(new Float32Array([1.5, -2]).buffer) },
            { name: 'y', shape: [1, 2, 2, 2], type: TensorType.FLOAT32 },
          ],
          inputs: [0],
          outputs: [2],
          operators: [
            {
              opcode: { builtin: 3 },
              inputs: [0, 1, -1],
              outputs: [2],
              options: { kind: 'conv2d', padding: Padding.VALID, strideW: 2, strideH: 3, activation: ActivationFunction.RELU6, dilationW: 1, dilationH: 1 },
            },
            { opcode: { custom: 'Convolution2DTransposeBias' }, inputs: [2], outputs: [2], customOptions: new Uint8Array([1, 0, 0, 0]) },
            { opcode: { builtin: 23 }, inputs: [2], outputs: [2], options: { kind: 'resizeBilinear', alignCorners: false, halfPixelCenters: true } },
            { opcode: { builtin: 150 }, inputs: [2], outputs: [2] },
          ],
        },
      ],
    };

    expect(readTfliteModel(syntheticModel())).toEqual(expected);
  });

  it('refuses bytes without the TFL3 file identifier', () => {
    expect(() => readTfliteModel(new TextEncoder().encode('not a model at all'))).toThrow(/file identifier/);
  });
});
