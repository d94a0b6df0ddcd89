import { BuiltinOperator } from './builtin-operator';
import { OperatorCode } from './tflite-model';

export function operatorName(opcode: OperatorCode): string {
  if ('custom' in opcode) return `custom ${opcode.custom}`;
  return BuiltinOperator[opcode.builtin] ?? `builtin code ${opcode.builtin}`;
}
