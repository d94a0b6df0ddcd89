import { ConversionContext } from '../conversion-context';
import { NCHW_TO_NHWC, nchwAxis } from '../layout';
import { TfliteOperator } from '../../tflite/tflite-model';

// ReduceMean keeps `axes` as an attribute up to opset 17 (see ONNX_OPSET).
export function convertMean(ctx: ConversionContext, operator: TfliteOperator): void {
  const keepDims = operator.options ? ctx.options(operator, 'reducer').keepDims : false;
  const [input, axesTensor] = operator.inputs;
  const output = operator.outputs[0];
  const rank = ctx.shape(input).length;
  const axes = [...new Set(ctx.requireInt32Constant(axesTensor, 'axes').map((axis) => (axis < 0 ? axis + rank : axis)))];
  // ONNX reads an empty axes list as "reduce everything", TFLite as "reduce nothing".
  if (axes.length === 0) throw ctx.unsupported('MEAN over no axes is not supported');
  if (rank !== 4) {
    ctx.graph.addNode('ReduceMean', [ctx.value(input)], [ctx.output(output)], { axes, keepdims: keepDims ? 1 : 0 });
    return;
  }
  const nchwAxes = axes.map(nchwAxis).sort((a, b) => a - b);
  // Keras' GlobalAveragePooling2D: onnxruntime runs GlobalAveragePool in its blocked NCHWc layout,
  // ReduceMean only after reordering to plain NCHW and back.
  if (keepDims && nchwAxes.join() === '2,3') {
    ctx.graph.addNode('GlobalAveragePool', [ctx.value(input)], [ctx.output(output)]);
    return;
  }
  if (keepDims) {
    ctx.graph.addNode('ReduceMean', [ctx.value(input)], [ctx.output(output)], { axes: nchwAxes, keepdims: 1 });
    return;
  }
  // The result leaves the NCHW world: reduce keeping the axes, return to NHWC order, then drop them.
  const reduced = ctx.temporary(output, 'kept_dims');
  ctx.graph.addNode('ReduceMean', [ctx.value(input)], [reduced], { axes: nchwAxes, keepdims: 1 });
  const nhwc = ctx.temporary(output, 'nhwc');
  ctx.graph.addNode('Transpose', [reduced], [nhwc], { perm: NCHW_TO_NHWC });
  const shape = ctx.graph.addInt64Initializer(`${ctx.output(output)}/shape`, [ctx.shape(output).length], ctx.shape(output));
  ctx.graph.addNode('Reshape', [nhwc, shape], [ctx.output(output)]);
}
