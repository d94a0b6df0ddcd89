import { OnnxGraph } from '../onnx/onnx-graph';
import { BuiltinOptions, TensorType, TfliteOperator, TfliteSubgraph, TfliteTensor } from '../tflite/tflite-model';
import { UnsupportedTfliteError } from '../unsupported-tflite-error';
import { NHWC_TO_NCHW, permuteShape, transposeData } from './layout';
import { decodeFloat16, decodeFloat32, decodeInt32 } from './tensor-data';

// How the ONNX graph's rank-4 inputs and outputs are laid out: as TFLite has them (NHWC), or as the
// graph holds them inside (NCHW), which spares a Transpose at each.
export type ImageLayout = 'nhwc' | 'nchw';

// State shared by the operator converters while one subgraph is translated. Every rank-4 tensor is
// held NCHW inside the ONNX graph; tensors of other ranks keep their TFLite layout.
export class ConversionContext {
  readonly graph = new OnnxGraph();
  private readonly valueNames = new Map<number, string>();
  private readonly folded = new Map<number, Float32Array>();
  private readonly constantValues = new Map<number, string>();
  private subject = 'model';

  constructor(
    readonly subgraph: TfliteSubgraph,
    private readonly imageLayout: ImageLayout = 'nhwc',
  ) {
    // Graph I/O keeps the TFLite names exactly, so those are reserved before any internal name; a
    // rank-4 one given NHWC is transposed at the boundary, so its NCHW twin inside needs a name of its own.
    const boundary = [...subgraph.inputs, ...subgraph.outputs];
    for (const index of boundary) this.graph.uniqueName(this.tensor(index).name);
    for (const index of boundary) {
      const tensor = this.tensor(index);
      this.valueNames.set(index, this.transposedAtBoundary(tensor) ? this.graph.uniqueName(`${tensor.name}/nchw`) : tensor.name);
    }
  }

  // Whether a graph input or output is NHWC outside and so needs a Transpose to or from its NCHW value.
  transposedAtBoundary(tensor: TfliteTensor): boolean {
    return tensor.shape.length === 4 && this.imageLayout === 'nhwc';
  }

  // The shape a graph input or output is declared with.
  boundaryShape(tensor: TfliteTensor): number[] {
    return tensor.shape.length === 4 && this.imageLayout === 'nchw' ? permuteShape(tensor.shape, NHWC_TO_NCHW) : tensor.shape;
  }

  // Names the operator being converted, for error messages.
  beginOperator(index: number, name: string, operator: TfliteOperator): void {
    const output = operator.outputs.length > 0 ? `, output "${this.tensor(operator.outputs[0]).name}"` : '';
    this.subject = `operator ${name} (#${index}${output})`;
  }

  unsupported(detail: string): UnsupportedTfliteError {
    return new UnsupportedTfliteError(this.subject, detail);
  }

  tensor(index: number): TfliteTensor {
    const tensor = this.subgraph.tensors[index];
    if (!tensor) throw this.unsupported(`refers to tensor ${index}, which is missing (an omitted optional input?)`);
    return tensor;
  }

  shape(index: number): number[] {
    return this.tensor(index).shape;
  }

  options<K extends BuiltinOptions['kind']>(operator: TfliteOperator, kind: K): Extract<BuiltinOptions, { kind: K }> {
    const options = operator.options;
    if (options?.kind !== kind) throw this.unsupported(`expected ${kind} options, found ${options ? options.kind : 'none'}`);
    return options as Extract<BuiltinOptions, { kind: K }>;
  }

  // Float contents of a constant tensor, including those folded from DEQUANTIZE; undefined for activations.
  floatConstant(index: number): Float32Array | undefined {
    const folded = this.folded.get(index);
    if (folded) return folded;
    const tensor = this.tensor(index);
    if (!tensor.data) return undefined;
    if (tensor.type === TensorType.FLOAT32) return decodeFloat32(tensor.data);
    throw this.unsupported(`constant "${tensor.name}" has type ${TensorType[tensor.type]}, expected FLOAT32`);
  }

  requireFloatConstant(index: number, role: string): Float32Array {
    const values = this.floatConstant(index);
    if (!values) throw this.unsupported(`the ${role} "${this.tensor(index).name}" must be a constant`);
    return values;
  }

  float16Constant(index: number): Float32Array | undefined {
    const tensor = this.tensor(index);
    return tensor.data && tensor.type === TensorType.FLOAT16 ? decodeFloat16(tensor.data) : undefined;
  }

  requireInt32Constant(index: number, role: string): number[] {
    const tensor = this.tensor(index);
    if (!tensor.data || tensor.type !== TensorType.INT32) throw this.unsupported(`the ${role} "${tensor.name}" must be an INT32 constant`);
    return decodeInt32(tensor.data);
  }

  foldConstant(index: number, values: Float32Array): void {
    this.folded.set(index, values);
  }

  // The ONNX value holding a float tensor; a constant becomes an initializer (NCHW when rank 4).
  value(index: number): string {
    const constant = this.floatConstant(index);
    if (!constant) {
      const tensor = this.tensor(index);
      if (tensor.type !== TensorType.FLOAT32) throw this.unsupported(`tensor "${tensor.name}" has type ${TensorType[tensor.type]}, expected FLOAT32`);
      return this.valueName(index);
    }
    let name = this.constantValues.get(index);
    if (!name) {
      const shape = this.shape(index);
      name =
        shape.length === 4
          ? this.graph.addFloatInitializer(this.tensor(index).name, permuteShape(shape, NHWC_TO_NCHW), transposeData(constant, shape, NHWC_TO_NCHW))
          : this.graph.addFloatInitializer(this.tensor(index).name, shape, constant);
      this.constantValues.set(index, name);
    }
    return name;
  }

  // The ONNX value an operator writes for tensor `index`.
  output(index: number): string {
    return this.valueName(index);
  }

  // A fresh name for an intermediate value derived from tensor `index`.
  temporary(index: number, suffix: string): string {
    return this.graph.uniqueName(`${this.valueName(index)}/${suffix}`);
  }

  // Named on first use, so constants (which become initializers) never take up their tensor's name.
  private valueName(index: number): string {
    let name = this.valueNames.get(index);
    if (!name) {
      name = this.graph.uniqueName(this.tensor(index).name || `tensor_${index}`);
      this.valueNames.set(index, name);
    }
    return name;
  }
}
