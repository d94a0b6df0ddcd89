import { ByteBuffer } from 'flatbuffers';
import { BuiltinOperator } from './builtin-operator';
import { FlatbufferTable } from './flatbuffer-table';
import { readBuiltinOptions } from './read-builtin-options';
import { OperatorCode, TfliteModel, TfliteOperator, TfliteSubgraph, TfliteTensor } from './tflite-model';

// Field ids below follow the table definitions in tensorflow/lite/schema/schema.fbs.
export function readTfliteModel(bytes: Uint8Array): TfliteModel {
  const bb = new ByteBuffer(bytes);
  if (bytes.length < 8 || !bb.__has_identifier('TFL3')) throw new Error('not a TFLite model: the file identifier is not "TFL3"');
  const model = FlatbufferTable.root(bb);
  const opcodes = model.tables(1).map(readOperatorCode);
  const buffers = model.tables(4).map((buffer) => readBuffer(buffer, bytes));
  return {
    version: model.uint32(0),
    description: model.string(3),
    subgraphs: model.tables(2).map((subgraph) => readSubgraph(subgraph, opcodes, buffers)),
  };
}

function readOperatorCode(table: FlatbufferTable): OperatorCode {
  // Codes above 127 live only in builtin_code; older writers filled only deprecated_builtin_code.
  const builtin = Math.max(table.int8(0), table.int32(3));
  return builtin === BuiltinOperator.CUSTOM ? { custom: table.string(1) } : { builtin };
}

function readBuffer(table: FlatbufferTable, file: Uint8Array): Uint8Array | undefined {
  // Models over 2 GB keep buffers after the flatbuffer, addressed by offset and size (offset 1 = unset).
  const offset = table.uint64(1);
  if (offset > 1n) return new Uint8Array(file.subarray(Number(offset), Number(offset + table.uint64(2))));
  const data = table.bytes(0);
  return data && data.length > 0 ? data : undefined;
}

function readSubgraph(table: FlatbufferTable, opcodes: OperatorCode[], buffers: (Uint8Array | undefined)[]): TfliteSubgraph {
  return {
    name: table.string(4),
    tensors: table.tables(0).map((tensor) => readTensor(tensor, buffers)),
    inputs: table.int32s(1),
    outputs: table.int32s(2),
    operators: table.tables(3).map((operator) => readOperator(operator, opcodes)),
  };
}

function readTensor(table: FlatbufferTable, buffers: (Uint8Array | undefined)[]): TfliteTensor {
  const tensor: TfliteTensor = { name: table.string(3), shape: table.int32s(0), type: table.int8(1) };
  const data = buffers[table.uint32(2)];
  if (data) tensor.data = data;
  return tensor;
}

function readOperator(table: FlatbufferTable, opcodes: OperatorCode[]): TfliteOperator {
  const opcodeIndex = table.uint32(0);
  const opcode = opcodes[opcodeIndex];
  if (!opcode) throw new Error(`TFLite operator refers to operator code ${opcodeIndex}, which the model does not declare`);
  const operator: TfliteOperator = { opcode, inputs: table.int32s(1), outputs: table.int32s(2) };
  const options = readBuiltinOptions(table.uint8(3), table.table(4));
  if (options) operator.options = options;
  const customOptions = table.bytes(5);
  if (customOptions) operator.customOptions = customOptions;
  return operator;
}
