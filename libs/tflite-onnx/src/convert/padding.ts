import { Padding } from '../tflite/tflite-model';

export interface Window {
  inputHW: [number, number];
  kernelHW: [number, number];
  strideHW: [number, number];
  dilationHW: [number, number];
}

// ONNX pads [top, left, bottom, right] for a TFLite conv or pool window. TF SAME pads so that
// out = ceil(in / stride) and puts the odd pixel at the bottom/right; explicit pads computed from
// the static shapes keep the graph free of auto_pad's corner cases.
export function explicitPads(padding: Padding, window: Window): number[] {
  if (padding === Padding.VALID) return [0, 0, 0, 0];
  const [height, width] = [samePadding(window, 0), samePadding(window, 1)];
  return [height[0], width[0], height[1], width[1]];
}

function samePadding(window: Window, axis: number): [number, number] {
  const input = window.inputHW[axis];
  const stride = window.strideHW[axis];
  const effectiveKernel = (window.kernelHW[axis] - 1) * window.dilationHW[axis] + 1;
  const output = Math.ceil(input / stride);
  const total = Math.max((output - 1) * stride + effectiveKernel - input, 0);
  const before = Math.floor(total / 2);
  return [before, total - before];
}
