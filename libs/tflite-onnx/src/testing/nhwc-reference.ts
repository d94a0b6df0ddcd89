import { NdArray, ndArray } from './nd-array';

// Straightforward NHWC implementations of the TFLite kernels, written from the TFLite definitions
// and independent of the converter, to check the converted ONNX graphs against.

export type ReferencePadding = 'SAME' | 'VALID';

interface Window {
  padding: ReferencePadding;
  strideHW: [number, number];
  dilationHW?: [number, number];
}

// TF: SAME gives out = ceil(in / stride) with the odd padding pixel after; VALID pads nothing.
function outputSizeAndPadBefore(size: number, kernel: number, stride: number, dilation: number, padding: ReferencePadding): [number, number] {
  const effective = (kernel - 1) * dilation + 1;
  if (padding === 'VALID') return [Math.floor((size - effective) / stride) + 1, 0];
  const out = Math.ceil(size / stride);
  return [out, Math.floor(Math.max((out - 1) * stride + effective - size, 0) / 2)];
}

function index4(shape: number[], a: number, b: number, c: number, d: number): number {
  return ((a * shape[1] + b) * shape[2] + c) * shape[3] + d;
}

// filter [O, kH, kW, I]; with I < input channels it is a grouped convolution.
export function conv2d(input: NdArray, filter: NdArray, bias: NdArray | undefined, window: Window): NdArray {
  const [batch, height, width, channels] = input.shape;
  const [outChannels, kernelH, kernelW, filterChannels] = filter.shape;
  const [dilationH, dilationW] = window.dilationHW ?? [1, 1];
  const [outH, padTop] = outputSizeAndPadBefore(height, kernelH, window.strideHW[0], dilationH, window.padding);
  const [outW, padLeft] = outputSizeAndPadBefore(width, kernelW, window.strideHW[1], dilationW, window.padding);
  const outputsPerGroup = outChannels / (channels / filterChannels);
  const out = ndArray([batch, outH, outW, outChannels]);
  for (let n = 0; n < batch; n++)
    for (let oy = 0; oy < outH; oy++)
      for (let ox = 0; ox < outW; ox++)
        for (let oc = 0; oc < outChannels; oc++) {
          const firstChannel = Math.floor(oc / outputsPerGroup) * filterChannels;
          let sum = bias ? bias.data[oc] : 0;
          for (let ky = 0; ky < kernelH; ky++)
            for (let kx = 0; kx < kernelW; kx++) {
              const y = oy * window.strideHW[0] - padTop + ky * dilationH;
              const x = ox * window.strideHW[1] - padLeft + kx * dilationW;
              if (y < 0 || y >= height || x < 0 || x >= width) continue;
              for (let ic = 0; ic < filterChannels; ic++) {
                sum += input.data[index4(input.shape, n, y, x, firstChannel + ic)] * filter.data[index4(filter.shape, oc, ky, kx, ic)];
              }
            }
          out.data[index4(out.shape, n, oy, ox, oc)] = sum;
        }
  return out;
}

// filter [1, kH, kW, C * M]: output channel c * M + m is input channel c times filter channel c * M + m.
export function depthwiseConv2d(input: NdArray, filter: NdArray, bias: NdArray | undefined, window: Window): NdArray {
  const [batch, height, width, channels] = input.shape;
  const [, kernelH, kernelW, outChannels] = filter.shape;
  const multiplier = outChannels / channels;
  const [dilationH, dilationW] = window.dilationHW ?? [1, 1];
  const [outH, padTop] = outputSizeAndPadBefore(height, kernelH, window.strideHW[0], dilationH, window.padding);
  const [outW, padLeft] = outputSizeAndPadBefore(width, kernelW, window.strideHW[1], dilationW, window.padding);
  const out = ndArray([batch, outH, outW, outChannels]);
  for (let n = 0; n < batch; n++)
    for (let oy = 0; oy < outH; oy++)
      for (let ox = 0; ox < outW; ox++)
        for (let c = 0; c < channels; c++)
          for (let m = 0; m < multiplier; m++) {
            const oc = c * multiplier + m;
            let sum = bias ? bias.data[oc] : 0;
            for (let ky = 0; ky < kernelH; ky++)
              for (let kx = 0; kx < kernelW; kx++) {
                const y = oy * window.strideHW[0] - padTop + ky * dilationH;
                const x = ox * window.strideHW[1] - padLeft + kx * dilationW;
                if (y < 0 || y >= height || x < 0 || x >= width) continue;
                sum += input.data[index4(input.shape, n, y, x, c)] * filter.data[index4(filter.shape, 0, ky, kx, oc)];
              }
            out.data[index4(out.shape, n, oy, ox, oc)] = sum;
          }
  return out;
}

// Averages only the pixels inside the image (TFLite never counts padding).
export function averagePool2d(input: NdArray, kernelHW: [number, number], window: Window): NdArray {
  const [batch, height, width, channels] = input.shape;
  const [outH, padTop] = outputSizeAndPadBefore(height, kernelHW[0], window.strideHW[0], 1, window.padding);
  const [outW, padLeft] = outputSizeAndPadBefore(width, kernelHW[1], window.strideHW[1], 1, window.padding);
  const out = ndArray([batch, outH, outW, channels]);
  for (let n = 0; n < batch; n++)
    for (let oy = 0; oy < outH; oy++)
      for (let ox = 0; ox < outW; ox++)
        for (let c = 0; c < channels; c++) {
          let sum = 0;
          let count = 0;
          for (let ky = 0; ky < kernelHW[0]; ky++)
            for (let kx = 0; kx < kernelHW[1]; kx++) {
              const y = oy * window.strideHW[0] - padTop + ky;
              const x = ox * window.strideHW[1] - padLeft + kx;
              if (y < 0 || y >= height || x < 0 || x >= width) continue;
              sum += input.data[index4(input.shape, n, y, x, c)];
              count++;
            }
          out.data[index4(out.shape, n, oy, ox, c)] = sum / count;
        }
  return out;
}

// MediaPipe's Convolution2DTransposeBias: filter [O, kH, kW, I], output = bias + scattered products,
// SAME trimming max(0, k - (in - 1) % s - 1) pixels, half of them (rounded down) at the start.
export function transposeConvBias(input: NdArray, filter: NdArray, bias: NdArray, padding: ReferencePadding, strideHW: [number, number]): NdArray {
  const [batch, height, width, channels] = input.shape;
  const [outChannels, kernelH, kernelW] = filter.shape;
  const trim = (size: number, kernel: number, stride: number): number => (padding === 'SAME' ? Math.max(0, kernel - ((size - 1) % stride) - 1) : 0);
  const [trimH, trimW] = [trim(height, kernelH, strideHW[0]), trim(width, kernelW, strideHW[1])];
  const outH = strideHW[0] * (height - 1) + kernelH - trimH;
  const outW = strideHW[1] * (width - 1) + kernelW - trimW;
  const out = ndArray([batch, outH, outW, outChannels]);
  for (let i = 0; i < out.data.length; i++) out.data[i] = bias.data[i % outChannels];
  for (let n = 0; n < batch; n++)
    for (let iy = 0; iy < height; iy++)
      for (let ix = 0; ix < width; ix++)
        for (let ic = 0; ic < channels; ic++)
          for (let ky = 0; ky < kernelH; ky++)
            for (let kx = 0; kx < kernelW; kx++) {
              const y = iy * strideHW[0] - Math.floor(trimH / 2) + ky;
              const x = ix * strideHW[1] - Math.floor(trimW / 2) + kx;
              if (y < 0 || y >= outH || x < 0 || x >= outW) continue;
              for (let oc = 0; oc < outChannels; oc++) {
                out.data[index4(out.shape, n, y, x, oc)] += input.data[index4(input.shape, n, iy, ix, ic)] * filter.data[index4(filter.shape, oc, ky, kx, ic)];
              }
            }
  return out;
}

// TFLite's reference ResizeBilinear, including its clamping of the source coordinates.
export function resizeBilinear(input: NdArray, size: [number, number], alignCorners: boolean, halfPixelCenters: boolean): NdArray {
  const [batch, height, width, channels] = input.shape;
  const [outH, outW] = size;
  const scale = (inSize: number, outSize: number): number => (alignCorners && outSize > 1 ? (inSize - 1) / (outSize - 1) : inSize / outSize);
  const source = (o: number, s: number, inSize: number): [number, number, number] => {
    const value = halfPixelCenters ? (o + 0.5) * s - 0.5 : o * s;
    return [value, Math.max(Math.floor(value), 0), Math.min(Math.ceil(value), inSize - 1)];
  };
  const out = ndArray([batch, outH, outW, channels]);
  for (let n = 0; n < batch; n++)
    for (let oy = 0; oy < outH; oy++) {
      const [y, y0, y1] = source(oy, scale(height, outH), height);
      for (let ox = 0; ox < outW; ox++) {
        const [x, x0, x1] = source(ox, scale(width, outW), width);
        for (let c = 0; c < channels; c++) {
          const at = (yy: number, xx: number): number => input.data[index4(input.shape, n, yy, xx, c)];
          out.data[index4(out.shape, n, oy, ox, c)] =
            at(y0, x0) * (1 - (y - y0)) * (1 - (x - x0)) +
            at(y1, x0) * (y - y0) * (1 - (x - x0)) +
            at(y0, x1) * (1 - (y - y0)) * (x - x0) +
            at(y1, x1) * (y - y0) * (x - x0);
        }
      }
    }
  return out;
}

export function mean(input: NdArray, axes: number[], keepDims: boolean): NdArray {
  const rank = input.shape.length;
  const reduced = new Set(axes.map((axis) => (axis < 0 ? axis + rank : axis)));
  const keptShape = input.shape.map((size, axis) => (reduced.has(axis) ? 1 : size));
  const sums = ndArray(keptShape);
  const strides = keptShape.map((_, axis) => keptShape.slice(axis + 1).reduce((a, b) => a * b, 1));
  const count = input.data.length / sums.data.length;
  forEachIndex(input.shape, (index, flat) => {
    const target = index.reduce((sum, value, axis) => sum + (reduced.has(axis) ? 0 : value * strides[axis]), 0);
    sums.data[target] += input.data[flat] / count;
  });
  return { shape: keepDims ? keptShape : input.shape.filter((_, axis) => !reduced.has(axis)), data: sums.data };
}

// Numpy-style broadcasting: shapes aligned on the right, size-1 dimensions stretched.
export function broadcast(a: NdArray, b: NdArray, op: (x: number, y: number) => number): NdArray {
  const rank = Math.max(a.shape.length, b.shape.length);
  const pad = (shape: number[]): number[] => [...new Array<number>(rank - shape.length).fill(1), ...shape];
  const [shapeA, shapeB] = [pad(a.shape), pad(b.shape)];
  const out = ndArray(shapeA.map((size, axis) => Math.max(size, shapeB[axis])));
  const offset = (shape: number[], index: number[]): number => index.reduce((flat, value, axis) => flat * shape[axis] + (shape[axis] === 1 ? 0 : value), 0);
  forEachIndex(out.shape, (index, flat) => {
    out.data[flat] = op(a.data[offset(shapeA, index)], b.data[offset(shapeB, index)]);
  });
  return out;
}

export function map(input: NdArray, op: (x: number) => number): NdArray {
  return { shape: input.shape, data: input.data.map(op) };
}

export const activations = {
  relu: (x: number): number => Math.max(x, 0),
  relu6: (x: number): number => Math.min(Math.max(x, 0), 6),
  reluN1To1: (x: number): number => Math.min(Math.max(x, -1), 1),
  tanh: (x: number): number => Math.tanh(x),
  hardSwish: (x: number): number => (x * Math.min(Math.max(x + 3, 0), 6)) / 6,
  sigmoid: (x: number): number => 1 / (1 + Math.exp(-x)),
};

function forEachIndex(shape: number[], visit: (index: number[], flat: number) => void): void {
  const index = new Array<number>(shape.length).fill(0);
  const total = shape.reduce((a, b) => a * b, 1);
  for (let flat = 0; flat < total; flat++) {
    visit(index, flat);
    for (let axis = shape.length - 1; axis >= 0 && ++index[axis] === shape[axis]; axis--) index[axis] = 0;
  }
}
