import { ConversionContext } from '../conversion-context';
import { emitWithActivation } from '../fused-activation';
import { NHWC_TO_NCHW, permuteShape, transposeData } from '../layout';
import { ActivationFunction, TfliteOperator } from '../../tflite/tflite-model';

export function convertAdd(ctx: ConversionContext, operator: TfliteOperator): void {
  // An absent options table means every field has its default: no fused activation.
  const activation = operator.options ? ctx.options(operator, 'add').activation : ActivationFunction.NONE;
  emitBinary(ctx, operator, 'Add', activation);
}

export function convertMul(ctx: ConversionContext, operator: TfliteOperator): void {
  const activation = operator.options ? ctx.options(operator, 'mul').activation : ActivationFunction.NONE;
  emitBinary(ctx, operator, 'Mul', activation);
}

function emitBinary(ctx: ConversionContext, operator: TfliteOperator, opType: string, activation: ActivationFunction): void {
  const output = operator.outputs[0];
  const outputRank = ctx.shape(output).length;
  const inputs = operator.inputs.map((input) => (outputRank === 4 ? rank4Operand(ctx, input, output) : ctx.value(input)));
  emitWithActivation(ctx, opType, inputs, {}, output, activation);
}

// TFLite broadcasts right-aligned against NHWC, so a [C] operand is per channel. Inside the NCHW
// graph it has to become [1, C, 1, 1]: pad to rank 4 with leading ones, then transpose like the data.
function rank4Operand(ctx: ConversionContext, input: number, output: number): string {
  const shape = ctx.shape(input);
  if (shape.length === 4) return ctx.value(input);
  const nhwcShape = [...new Array<number>(4 - shape.length).fill(1), ...shape];
  const name = ctx.tensor(input).name;
  const constant = ctx.floatConstant(input);
  if (constant) {
    return ctx.graph.addFloatInitializer(name, permuteShape(nhwcShape, NHWC_TO_NCHW), transposeData(constant, nhwcShape, NHWC_TO_NCHW));
  }
  const reshaped = ctx.temporary(output, `${name}/rank4`);
  ctx.graph.addNode('Reshape', [ctx.value(input), ctx.graph.addInt64Initializer(`${reshaped}/shape`, [4], nhwcShape)], [reshaped]);
  const nchw = ctx.temporary(output, `${name}/nchw`);
  ctx.graph.addNode('Transpose', [reshaped], [nchw], { perm: NHWC_TO_NCHW });
  return nchw;
}
