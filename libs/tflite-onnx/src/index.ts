export type { ImageLayout } from './convert/conversion-context';
export { convertTfliteModelToOnnx, convertTfliteToOnnx } from './convert/convert-tflite-model';
export { BuiltinOperator } from './tflite/builtin-operator';
export { operatorName } from './tflite/operator-name';
export { readTfliteModel } from './tflite/read-tflite-model';
export * from './tflite/tflite-model';
export { UnsupportedTfliteError } from './unsupported-tflite-error';
