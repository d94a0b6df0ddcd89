import * as ort from 'onnxruntime-node';
import { NdArray } from './nd-array';

// Runs an ONNX model once on CPU. Under Jest this needs test/onnx-test-environment.cjs.
export async function runOnnx(model: Uint8Array, feeds: Record<string, NdArray>): Promise<Record<string, NdArray>> {
  const session = await ort.InferenceSession.create(model);
  try {
    const tensors = Object.fromEntries(Object.entries(feeds).map(([name, array]) => [name, new ort.Tensor('float32', array.data, array.shape)]));
    const results = await session.run(tensors);
    return Object.fromEntries(
      Object.entries(results).map(([name, tensor]) => [name, { shape: [...tensor.dims], data: tensor.data as Float32Array }]),
    );
  } finally {
    await session.release();
  }
}
