import { BuiltinOptions, TensorType, TfliteModel, TfliteOperator, TfliteTensor } from '../tflite/tflite-model';
import { NdArray } from './nd-array';

// Builds small TfliteModel objects by hand for converter tests; `builtin` takes any code, so tests
// can name ones the BuiltinOperator enum does not list.
export class TfliteGraphBuilder {
  private readonly tensors: TfliteTensor[] = [];
  private readonly inputs: number[] = [];
  private readonly outputs: number[] = [];
  private readonly operators: TfliteOperator[] = [];

  input(name: string, shape: number[], type = TensorType.FLOAT32): number {
    const index = this.activation(name, shape, type);
    this.inputs.push(index);
    return index;
  }

  output(name: string, shape: number[]): number {
    const index = this.activation(name, shape);
    this.outputs.push(index);
    return index;
  }

  activation(name: string, shape: number[], type = TensorType.FLOAT32): number {
    return this.tensors.push({ name, shape, type }) - 1;
  }

  constant(name: string, array: NdArray): number {
    return this.tensors.push({ name, shape: array.shape, type: TensorType.FLOAT32, data: littleEndian(array.data, 4, (view, i, v) => view.setFloat32(i, v, true)) }) - 1;
  }

  float16Constant(name: string, array: NdArray): number {
    const data = littleEndian(array.data, 2, (view, i, v) => view.setUint16(i, float16Bits(v), true));
    return this.tensors.push({ name, shape: array.shape, type: TensorType.FLOAT16, data }) - 1;
  }

  int32Constant(name: string, values: number[]): number {
    const data = littleEndian(values, 4, (view, i, v) => view.setInt32(i, v, true));
    return this.tensors.push({ name, shape: [values.length], type: TensorType.INT32, data }) - 1;
  }

  builtin(code: number, inputs: number[], outputs: number[], options?: BuiltinOptions): this {
    this.operators.push({ opcode: { builtin: code }, inputs, outputs, ...(options ? { options } : {}) });
    return this;
  }

  custom(name: string, inputs: number[], outputs: number[], customOptions: Uint8Array): this {
    this.operators.push({ opcode: { custom: name }, inputs, outputs, customOptions });
    return this;
  }

  build(): TfliteModel {
    return {
      version: 3,
      description: 'test graph',
      subgraphs: [{ name: 'main', tensors: this.tensors, inputs: this.inputs, outputs: this.outputs, operators: this.operators }],
    };
  }
}

export function int32Bytes(values: number[]): Uint8Array {
  return littleEndian(values, 4, (view, i, v) => view.setInt32(i, v, true));
}

function littleEndian(values: ArrayLike<number>, size: number, write: (view: DataView, offset: number, value: number) => void): Uint8Array {
  const bytes = new Uint8Array(values.length * size);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) write(view, i * size, values[i]);
  return bytes;
}

// Only for values float16 holds exactly (the test data are multiples of 1/256 within +-2).
function float16Bits(value: number): number {
  if (value === 0) return 0;
  const sign = value < 0 ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  const exponent = Math.floor(Math.log2(magnitude));
  const mantissa = (magnitude / 2 ** exponent - 1) * 1024;
  if (exponent < -14 || exponent > 15 || !Number.isInteger(mantissa)) throw new Error(`${value} is not exact in float16`);
  return sign | ((exponent + 15) << 10) | mantissa;
}
