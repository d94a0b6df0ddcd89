import { onnx } from 'onnx-proto';

// Opset 17: HardSwish needs 14, and ReduceMean still takes `axes` as an attribute (an input from 18).
export const ONNX_OPSET = 17;
// IR version 8 is what opset 17 was released with; onnxruntime accepts it (and newer).
export const ONNX_IR_VERSION = 8;

export type AttributeValue = number | number[] | string;

// Collects nodes, initializers and graph I/O in the order they are added, and encodes a ModelProto.
export class OnnxGraph {
  private readonly nodes: onnx.INodeProto[] = [];
  private readonly initializers: onnx.ITensorProto[] = [];
  private readonly inputs: onnx.IValueInfoProto[] = [];
  private readonly outputs: onnx.IValueInfoProto[] = [];
  private readonly usedNames = new Set<string>();

  // Returns `base`, or `base_2`, `base_3`... when taken, and reserves it.
  uniqueName(base: string): string {
    let name = base;
    for (let n = 2; this.usedNames.has(name); n++) name = `${base}_${n}`;
    this.usedNames.add(name);
    return name;
  }

  addInput(name: string, dims: number[]): void {
    this.inputs.push(floatValueInfo(name, dims));
  }

  addOutput(name: string, dims: number[]): void {
    this.outputs.push(floatValueInfo(name, dims));
  }

  addNode(opType: string, inputs: string[], outputs: string[], attributes: Record<string, AttributeValue> = {}): void {
    this.nodes.push({
      name: this.uniqueName(`${opType}:${outputs[0]}`),
      opType,
      input: inputs,
      output: outputs,
      attribute: Object.entries(attributes).map(([name, value]) => attribute(name, value)),
    });
  }

  // Adds a float32 initializer under a fresh name derived from `base`; returns that name.
  addFloatInitializer(base: string, dims: number[], values: Float32Array): string {
    const raw = new DataView(new ArrayBuffer(values.length * 4));
    values.forEach((value, i) => raw.setFloat32(i * 4, value, true));
    return this.addInitializer(base, onnx.TensorProto.DataType.FLOAT, dims, raw);
  }

  addInt64Initializer(base: string, dims: number[], values: number[]): string {
    const raw = new DataView(new ArrayBuffer(values.length * 8));
    values.forEach((value, i) => raw.setBigInt64(i * 8, BigInt(value), true));
    return this.addInitializer(base, onnx.TensorProto.DataType.INT64, dims, raw);
  }

  encode(producerName: string): Uint8Array {
    return onnx.ModelProto.encode({
      irVersion: ONNX_IR_VERSION,
      opsetImport: [{ domain: '', version: ONNX_OPSET }],
      producerName,
      graph: { name: 'main', node: this.nodes, initializer: this.initializers, input: this.inputs, output: this.outputs },
    }).finish();
  }

  private addInitializer(base: string, dataType: onnx.TensorProto.DataType, dims: number[], raw: DataView): string {
    const name = this.uniqueName(base);
    this.initializers.push({ name, dataType, dims, rawData: new Uint8Array(raw.buffer) });
    return name;
  }
}

function floatValueInfo(name: string, dims: number[]): onnx.IValueInfoProto {
  return {
    name,
    type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: dims.map((dimValue) => ({ dimValue })) } } },
  };
}

function attribute(name: string, value: AttributeValue): onnx.IAttributeProto {
  const { AttributeType } = onnx.AttributeProto;
  if (typeof value === 'string') return { name, type: AttributeType.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  return { name, type: AttributeType.INT, i: value };
}
