import { FlatbufferTable } from './flatbuffer-table';
import { BuiltinOptions } from './tflite-model';

// Indices in the BuiltinOptions union of schema.fbs (0 is NONE).
const CONV_2D_OPTIONS = 1;
const DEPTHWISE_CONV_2D_OPTIONS = 2;
const POOL_2D_OPTIONS = 5;
const ADD_OPTIONS = 11;
const RESIZE_BILINEAR_OPTIONS = 15;
const MUL_OPTIONS = 21;
const REDUCER_OPTIONS = 27;

export function readBuiltinOptions(type: number, table: FlatbufferTable | undefined): BuiltinOptions | undefined {
  if (type === 0 || !table) return undefined;
  switch (type) {
    case CONV_2D_OPTIONS:
      return {
        kind: 'conv2d',
        padding: table.int8(0),
        strideW: table.int32(1),
        strideH: table.int32(2),
        activation: table.int8(3),
        dilationW: table.int32(4, 1),
        dilationH: table.int32(5, 1),
      };
    case DEPTHWISE_CONV_2D_OPTIONS:
      return {
        kind: 'depthwiseConv2d',
        padding: table.int8(0),
        strideW: table.int32(1),
        strideH: table.int32(2),
        depthMultiplier: table.int32(3),
        activation: table.int8(4),
        dilationW: table.int32(5, 1),
        dilationH: table.int32(6, 1),
      };
    case POOL_2D_OPTIONS:
      return {
        kind: 'pool2d',
        padding: table.int8(0),
        strideW: table.int32(1),
        strideH: table.int32(2),
        filterW: table.int32(3),
        filterH: table.int32(4),
        activation: table.int8(5),
      };
    case ADD_OPTIONS:
      return { kind: 'add', activation: table.int8(0) };
    case MUL_OPTIONS:
      return { kind: 'mul', activation: table.int8(0) };
    case RESIZE_BILINEAR_OPTIONS:
      // Fields 0 and 1 (new_height, new_width) are deprecated: the size is the op's second input.
      return { kind: 'resizeBilinear', alignCorners: table.bool(2), halfPixelCenters: table.bool(3) };
    case REDUCER_OPTIONS:
      return { kind: 'reducer', keepDims: table.bool(0) };
    default:
      return { kind: 'other', type };
  }
}
