// A plain-object view of the part of a .tflite flatbuffer the converter reads. Buffers and operator
// codes are resolved in place, so a test can write a graph by hand without building a flatbuffer.
// Enum values are those of tensorflow/lite/schema/schema.fbs.

export enum TensorType {
  FLOAT32 = 0,
  FLOAT16 = 1,
  INT32 = 2,
  UINT8 = 3,
  INT64 = 4,
  STRING = 5,
  BOOL = 6,
  INT16 = 7,
  COMPLEX64 = 8,
  INT8 = 9,
}

export enum Padding {
  SAME = 0,
  VALID = 1,
}

export enum ActivationFunction {
  NONE = 0,
  RELU = 1,
  RELU_N1_TO_1 = 2,
  RELU6 = 3,
  TANH = 4,
  SIGN_BIT = 5,
}

export interface TfliteTensor {
  name: string;
  shape: number[];
  type: TensorType;
  // Constant contents, little-endian as stored in the file; absent for activations.
  data?: Uint8Array;
}

export interface Conv2DOptions {
  kind: 'conv2d';
  padding: Padding;
  strideW: number;
  strideH: number;
  dilationW: number;
  dilationH: number;
  activation: ActivationFunction;
}

export interface DepthwiseConv2DOptions {
  kind: 'depthwiseConv2d';
  padding: Padding;
  strideW: number;
  strideH: number;
  depthMultiplier: number;
  dilationW: number;
  dilationH: number;
  activation: ActivationFunction;
}

export interface Pool2DOptions {
  kind: 'pool2d';
  padding: Padding;
  strideW: number;
  strideH: number;
  filterW: number;
  filterH: number;
  activation: ActivationFunction;
}

export interface AddOptions {
  kind: 'add';
  activation: ActivationFunction;
}

export interface MulOptions {
  kind: 'mul';
  activation: ActivationFunction;
}

export interface ReducerOptions {
  kind: 'reducer';
  keepDims: boolean;
}

export interface ResizeBilinearOptions {
  kind: 'resizeBilinear';
  alignCorners: boolean;
  halfPixelCenters: boolean;
}

// An options table the reader does not decode; `type` is its index in the BuiltinOptions union.
export interface OtherOptions {
  kind: 'other';
  type: number;
}

export type BuiltinOptions =
  | Conv2DOptions
  | DepthwiseConv2DOptions
  | Pool2DOptions
  | AddOptions
  | MulOptions
  | ReducerOptions
  | ResizeBilinearOptions
  | OtherOptions;

export type OperatorCode = { builtin: number } | { custom: string };

export interface TfliteOperator {
  opcode: OperatorCode;
  // Tensor indices; -1 marks an omitted optional input.
  inputs: number[];
  outputs: number[];
  options?: BuiltinOptions;
  customOptions?: Uint8Array;
}

export interface TfliteSubgraph {
  name: string;
  tensors: TfliteTensor[];
  inputs: number[];
  outputs: number[];
  operators: TfliteOperator[];
}

export interface TfliteModel {
  version: number;
  description: string;
  subgraphs: TfliteSubgraph[];
}
