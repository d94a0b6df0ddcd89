// Jest's node environment gives each test file its own realm, with its own Float32Array and
// friends (only ArrayBuffer, Uint8Array and Buffer are shared). onnxruntime-node's native addon
// creates tensors with the outer realm's constructors and checks `instanceof` against them, so
// inside the sandbox `new ort.Tensor('float32', new Float32Array(...))` is refused and output
// data fails instanceof checks. This environment hands the sandbox the outer realm's binary-data
// constructors. Use it with the docblock `@jest-environment ./test/onnx-test-environment.cjs`.
const { TestEnvironment } = require('jest-environment-node');

const BINARY_DATA_GLOBALS = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float16Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class OnnxTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // Float16Array exists only on newer Node versions.
    for (const name of BINARY_DATA_GLOBALS) if (name in globalThis) this.global[name] = globalThis[name];
  }
}

module.exports = OnnxTestEnvironment;
