import { BuiltinOperator } from '../tflite/builtin-operator';
import { OperatorCode, TfliteOperator } from '../tflite/tflite-model';
import { ConversionContext } from './conversion-context';
import { convertAveragePool2d } from './ops/average-pool';
import { convertAdd, convertMul } from './ops/binary';
import { convertConv2d, convertDepthwiseConv2d } from './ops/convolution';
import { convertDequantize } from './ops/dequantize';
import { convertMean } from './ops/mean';
import { convertResizeBilinear } from './ops/resize-bilinear';
import { convertTransposeConvBias } from './ops/transpose-conv-bias';
import { unaryConverter } from './ops/unary';

export type OperatorConverter = (ctx: ConversionContext, operator: TfliteOperator) => void;

const builtinConverters = new Map<number, OperatorConverter>([
  [BuiltinOperator.ADD, convertAdd],
  [BuiltinOperator.AVERAGE_POOL_2D, convertAveragePool2d],
  [BuiltinOperator.CONV_2D, convertConv2d],
  [BuiltinOperator.DEPTHWISE_CONV_2D, convertDepthwiseConv2d],
  [BuiltinOperator.DEQUANTIZE, convertDequantize],
  [BuiltinOperator.HARD_SWISH, unaryConverter('HardSwish')],
  [BuiltinOperator.LOGISTIC, unaryConverter('Sigmoid')],
  [BuiltinOperator.MEAN, convertMean],
  [BuiltinOperator.MUL, convertMul],
  [BuiltinOperator.RELU, unaryConverter('Relu')],
  [BuiltinOperator.RESIZE_BILINEAR, convertResizeBilinear],
]);

const customConverters = new Map<string, OperatorConverter>([['Convolution2DTransposeBias', convertTransposeConvBias]]);

export function converterFor(opcode: OperatorCode): OperatorConverter | undefined {
  return 'custom' in opcode ? customConverters.get(opcode.custom) : builtinConverters.get(opcode.builtin);
}
