import { ConversionContext } from '../conversion-context';
import { TfliteOperator } from '../../tflite/tflite-model';

// Element-wise operators that map one to one and do not care about layout.
export function unaryConverter(opType: string) {
  return (ctx: ConversionContext, operator: TfliteOperator): void => {
    ctx.graph.addNode(opType, [ctx.value(operator.inputs[0])], [ctx.output(operator.outputs[0])]);
  };
}
