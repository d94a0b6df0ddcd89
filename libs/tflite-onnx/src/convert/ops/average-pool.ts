import { ConversionContext } from '../conversion-context';
import { emitWithActivation } from '../fused-activation';
import { explicitPads } from '../padding';
import { Padding, TfliteOperator } from '../../tflite/tflite-model';

export function convertAveragePool2d(ctx: ConversionContext, operator: TfliteOperator): void {
  const options = ctx.options(operator, 'pool2d');
  const input = operator.inputs[0];
  const [, height, width] = ctx.shape(input);
  const kernelHW: [number, number] = [options.filterH, options.filterW];
  // A window over the whole image (squeeze-and-excitation blocks) is a GlobalAveragePool, which
  // onnxruntime keeps in its blocked NCHWc layout instead of reordering around it.
  if (options.padding === Padding.VALID && height === kernelHW[0] && width === kernelHW[1]) {
    emitWithActivation(ctx, 'GlobalAveragePool', [ctx.value(input)], {}, operator.outputs[0], options.activation);
    return;
  }
  const strideHW: [number, number] = [options.strideH, options.strideW];
  const attributes = {
    kernel_shape: kernelHW,
    strides: strideHW,
    pads: explicitPads(options.padding, { inputHW: [height, width], kernelHW, strideHW, dilationHW: [1, 1] }),
    // TFLite divides by the number of real pixels under the window, never counting SAME padding.
    count_include_pad: 0,
  };
  emitWithActivation(ctx, 'AveragePool', [ctx.value(input)], attributes, operator.outputs[0], options.activation);
}
