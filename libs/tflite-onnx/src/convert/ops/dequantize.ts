import { ConversionContext } from '../conversion-context';
import { TfliteOperator } from '../../tflite/tflite-model';

// Models stored with float16 weights dequantize them at load time; the converter does it once,
// here, so the ONNX graph carries plain float32 initializers and no Cast nodes.
export function convertDequantize(ctx: ConversionContext, operator: TfliteOperator): void {
  const values = ctx.float16Constant(operator.inputs[0]);
  if (!values) throw ctx.unsupported('only constant FLOAT16 inputs are supported (quantized integer tensors are not)');
  ctx.foldConstant(operator.outputs[0], values);
}
