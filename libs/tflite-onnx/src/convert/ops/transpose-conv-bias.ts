import { ConversionContext } from '../conversion-context';
import { permuteShape, transposeData } from '../layout';
import { TfliteOperator } from '../../tflite/tflite-model';

// MediaPipe's custom op keeps its parameters as a raw little-endian TfLiteTransposeConvParams
// struct: int32 padding (TfLitePadding: 1 = SAME, 2 = VALID), stride_width, stride_height.
// https://github.com/google-ai-edge/mediapipe/blob/master/mediapipe/util/tflite/operations/transpose_conv_bias.cc
const TFLITE_PADDING_SAME = 1;
const TFLITE_PADDING_VALID = 2;

export interface TransposeConvParams {
  same: boolean;
  strideW: number;
  strideH: number;
}

export function readTransposeConvParams(bytes: Uint8Array | undefined): TransposeConvParams | undefined {
  if (!bytes || bytes.byteLength < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const padding = view.getInt32(0, true);
  if (padding !== TFLITE_PADDING_SAME && padding !== TFLITE_PADDING_VALID) return undefined;
  return { same: padding === TFLITE_PADDING_SAME, strideW: view.getInt32(4, true), strideH: view.getInt32(8, true) };
}

// Filters are [O, H, W, I]; ONNX ConvTranspose wants [I, O, H, W].
const OHWI_TO_IOHW = [3, 0, 1, 2];

export function convertTransposeConvBias(ctx: ConversionContext, operator: TfliteOperator): void {
  const params = readTransposeConvParams(operator.customOptions);
  if (!params) throw ctx.unsupported('custom options are not a TfLiteTransposeConvParams struct with SAME or VALID padding');
  const [input, filter, bias] = operator.inputs;
  const output = operator.outputs[0];
  const [, inputH, inputW] = ctx.shape(input);
  const filterShape = ctx.shape(filter);
  const [, kernelH, kernelW] = filterShape;
  const [top, bottom, outputH] = cropping(params.same, inputH, kernelH, params.strideH);
  const [left, right, outputW] = cropping(params.same, inputW, kernelW, params.strideW);
  const [, expectedH, expectedW] = ctx.shape(output);
  if (outputH !== expectedH || outputW !== expectedW) {
    throw ctx.unsupported(`computed output ${outputH}x${outputW} but the model declares ${expectedH}x${expectedW}`);
  }
  const weights = ctx.requireFloatConstant(filter, 'filter');
  const inputs = [
    ctx.value(input),
    ctx.graph.addFloatInitializer(ctx.tensor(filter).name, permuteShape(filterShape, OHWI_TO_IOHW), transposeData(weights, filterShape, OHWI_TO_IOHW)),
    ctx.graph.addFloatInitializer(ctx.tensor(bias).name, ctx.shape(bias), ctx.requireFloatConstant(bias, 'bias')),
  ];
  ctx.graph.addNode('ConvTranspose', inputs, [ctx.output(output)], {
    kernel_shape: [kernelH, kernelW],
    strides: [params.strideH, params.strideW],
    pads: [top, left, bottom, right],
  });
}

// As MediaPipe computes it: SAME trims max(0, k - (in - 1) % s - 1) pixels off the full
// (in - 1) * s + k output, half (rounded down) at the start. Returns [start, end, output size].
function cropping(same: boolean, input: number, kernel: number, stride: number): [number, number, number] {
  const total = same ? Math.max(0, kernel - ((input - 1) % stride) - 1) : 0;
  const start = Math.floor(total / 2);
  return [start, total - start, (input - 1) * stride + kernel - total];
}
