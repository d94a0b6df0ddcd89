import { NCHW_TO_NHWC, NHWC_TO_NCHW } from './layout';
import { ConversionContext, type ImageLayout } from './conversion-context';
import { converterFor } from './operator-converters';
import { operatorName } from '../tflite/operator-name';
import { readTfliteModel } from '../tflite/read-tflite-model';
import { TensorType, TfliteModel } from '../tflite/tflite-model';
import { UnsupportedTfliteError } from '../unsupported-tflite-error';

const PRODUCER = '@vj/tflite-onnx';

// Reads a .tflite file and returns an ONNX model (serialized ModelProto) computing the same function.
export function convertTfliteToOnnx(bytes: Uint8Array, imageLayout: ImageLayout = 'nhwc'): Uint8Array {
  return convertTfliteModelToOnnx(readTfliteModel(bytes), imageLayout);
}

// The ONNX graph keeps the TFLite input and output names. Inside, image tensors are NCHW; at the
// boundary they are NHWC as in TFLite, with one Transpose after each input and before each output, or
// with `imageLayout` 'nchw' NCHW too, with none.
export function convertTfliteModelToOnnx(model: TfliteModel, imageLayout: ImageLayout = 'nhwc'): Uint8Array {
  // Further subgraphs are bodies of control-flow operators, which are refused below anyway.
  const subgraph = model.subgraphs[0];
  if (!subgraph) throw new UnsupportedTfliteError('model', 'has no subgraph');
  const ctx = new ConversionContext(subgraph, imageLayout);

  for (const index of subgraph.inputs) {
    const tensor = boundaryTensor(ctx, index, 'input');
    ctx.graph.addInput(tensor.name, ctx.boundaryShape(tensor));
    if (ctx.transposedAtBoundary(tensor)) ctx.graph.addNode('Transpose', [tensor.name], [ctx.output(index)], { perm: NHWC_TO_NCHW });
  }

  subgraph.operators.forEach((operator, index) => {
    const name = operatorName(operator.opcode);
    ctx.beginOperator(index, name, operator);
    const convert = converterFor(operator.opcode);
    if (!convert) throw ctx.unsupported('operator not supported by @vj/tflite-onnx');
    convert(ctx, operator);
  });

  for (const index of subgraph.outputs) {
    const tensor = boundaryTensor(ctx, index, 'output');
    ctx.graph.addOutput(tensor.name, ctx.boundaryShape(tensor));
    if (ctx.transposedAtBoundary(tensor)) ctx.graph.addNode('Transpose', [ctx.value(index)], [tensor.name], { perm: NCHW_TO_NHWC });
  }
  return ctx.graph.encode(PRODUCER);
}

function boundaryTensor(ctx: ConversionContext, index: number, role: 'input' | 'output') {
  const tensor = ctx.tensor(index);
  if (tensor.type !== TensorType.FLOAT32) {
    throw new UnsupportedTfliteError(`${role} "${tensor.name}"`, `has type ${TensorType[tensor.type]}; only FLOAT32 graph inputs and outputs are supported`);
  }
  return tensor;
}
