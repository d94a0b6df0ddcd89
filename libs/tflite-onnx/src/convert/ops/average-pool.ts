import { ConversionContext } from '../conversion-context';
import { emitWithActivation } from '../fused-activation';
import { explicitPads } from '../padding';
import { TfliteOperator } from '../../tflite/tflite-model';

export function convertAveragePool2d(ctx: ConversionContext, operator: TfliteOperator): void {
  const options = ctx.options(operator, 'pool2d');
  const input = operator.inputs[0];
  const [, height, width] = ctx.shape(input);
  const kernelHW: [number, number] = [options.filterH, options.filterW];
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
