import { ConversionContext } from '../conversion-context';
import { TfliteOperator } from '../../tflite/tflite-model';

export function convertResizeBilinear(ctx: ConversionContext, operator: TfliteOperator): void {
  const { alignCorners, halfPixelCenters } = ctx.options(operator, 'resizeBilinear');
  if (alignCorners && halfPixelCenters) throw ctx.unsupported('align_corners together with half_pixel_centers is invalid');
  const [input, size] = operator.inputs;
  const output = operator.outputs[0];
  const [batch, , , channels] = ctx.shape(input);
  const [height, width] = ctx.requireInt32Constant(size, 'size');
  // TF's source coordinate: align_corners -> out * (in - 1) / (out - 1); half_pixel_centers ->
  // (out + 0.5) * in / out - 0.5; neither -> out * in / out. ONNX names the same three mappings.
  const mode = alignCorners ? 'align_corners' : halfPixelCenters ? 'half_pixel' : 'asymmetric';
  const sizes = ctx.graph.addInt64Initializer(`${ctx.output(output)}/sizes`, [4], [batch, channels, height, width]);
  ctx.graph.addNode('Resize', [ctx.value(input), '', '', sizes], [ctx.output(output)], {
    mode: 'linear',
    coordinate_transformation_mode: mode,
  });
}
