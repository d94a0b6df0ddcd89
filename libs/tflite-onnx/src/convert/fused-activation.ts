import { AttributeValue } from '../onnx/onnx-graph';
import { ActivationFunction } from '../tflite/tflite-model';
import { ConversionContext } from './conversion-context';

// Emits `opType` writing tensor `outputIndex`, followed by the operator's fused activation if any.
export function emitWithActivation(
  ctx: ConversionContext,
  opType: string,
  inputs: string[],
  attributes: Record<string, AttributeValue>,
  outputIndex: number,
  activation: ActivationFunction,
): void {
  const output = ctx.output(outputIndex);
  if (activation === ActivationFunction.NONE) {
    ctx.graph.addNode(opType, inputs, [output], attributes);
    return;
  }
  const linear = ctx.temporary(outputIndex, 'linear');
  ctx.graph.addNode(opType, inputs, [linear], attributes);
  switch (activation) {
    case ActivationFunction.RELU:
      ctx.graph.addNode('Relu', [linear], [output]);
      return;
    case ActivationFunction.RELU6:
      return clip(ctx, linear, output, 0, 6);
    case ActivationFunction.RELU_N1_TO_1:
      return clip(ctx, linear, output, -1, 1);
    case ActivationFunction.TANH:
      ctx.graph.addNode('Tanh', [linear], [output]);
      return;
    default:
      throw ctx.unsupported(`fused activation ${ActivationFunction[activation] ?? activation} is not supported`);
  }
}

function clip(ctx: ConversionContext, input: string, output: string, min: number, max: number): void {
  const bounds = [min, max].map((bound, i) => ctx.graph.addFloatInitializer(`${output}/${i ? 'max' : 'min'}`, [], Float32Array.of(bound)));
  ctx.graph.addNode('Clip', [input, ...bounds], [output]);
}
