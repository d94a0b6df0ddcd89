import { ConversionContext } from '../conversion-context';
import { emitWithActivation } from '../fused-activation';
import { permuteShape, transposeData } from '../layout';
import { explicitPads } from '../padding';
import { Conv2DOptions, DepthwiseConv2DOptions, TfliteOperator } from '../../tflite/tflite-model';

// TFLite filters are OHWI; ONNX Conv wants OIHW.
const OHWI_TO_OIHW = [0, 3, 1, 2];
// Depthwise filters are [1, H, W, C*M]; ONNX wants [C*M, 1, H, W] with group = C, and output
// channel c*M + m reads input channel c in both.
const DEPTHWISE_TO_OIHW = [3, 0, 1, 2];

export function convertConv2d(ctx: ConversionContext, operator: TfliteOperator): void {
  const options = ctx.options(operator, 'conv2d');
  const [input, filter] = operator.inputs;
  const inputChannels = ctx.shape(input)[3];
  const filterChannels = ctx.shape(filter)[3];
  // A filter with fewer input channels than the data is a grouped convolution.
  const group = inputChannels / filterChannels;
  if (!Number.isInteger(group)) throw ctx.unsupported(`input has ${inputChannels} channels, the filter ${filterChannels}`);
  emitConv(ctx, operator, OHWI_TO_OIHW, group, options);
}

export function convertDepthwiseConv2d(ctx: ConversionContext, operator: TfliteOperator): void {
  const options = ctx.options(operator, 'depthwiseConv2d');
  const [input, filter] = operator.inputs;
  const inputChannels = ctx.shape(input)[3];
  const outputChannels = ctx.shape(filter)[3];
  if (outputChannels % inputChannels !== 0) throw ctx.unsupported(`input has ${inputChannels} channels, the filter ${outputChannels} outputs`);
  emitConv(ctx, operator, DEPTHWISE_TO_OIHW, inputChannels, options);
}

function emitConv(
  ctx: ConversionContext,
  operator: TfliteOperator,
  filterPerm: number[],
  group: number,
  options: Conv2DOptions | DepthwiseConv2DOptions,
): void {
  const [input, filter, bias] = operator.inputs;
  const [, height, width] = ctx.shape(input);
  const filterShape = ctx.shape(filter);
  const weights = ctx.requireFloatConstant(filter, 'filter');
  const inputs = [
    ctx.value(input),
    ctx.graph.addFloatInitializer(ctx.tensor(filter).name, permuteShape(filterShape, filterPerm), transposeData(weights, filterShape, filterPerm)),
  ];
  // The bias input is optional (index -1 or absent).
  if (bias !== undefined && bias >= 0) inputs.push(ctx.graph.addFloatInitializer(ctx.tensor(bias).name, ctx.shape(bias), ctx.requireFloatConstant(bias, 'bias')));
  const kernelHW: [number, number] = [filterShape[1], filterShape[2]];
  const strideHW: [number, number] = [options.strideH, options.strideW];
  const dilationHW: [number, number] = [options.dilationH, options.dilationW];
  const attributes = {
    kernel_shape: kernelHW,
    strides: strideHW,
    dilations: dilationHW,
    pads: explicitPads(options.padding, { inputHW: [height, width], kernelHW, strideHW, dilationHW }),
    group,
  };
  emitWithActivation(ctx, 'Conv', inputs, attributes, operator.outputs[0], options.activation);
}
