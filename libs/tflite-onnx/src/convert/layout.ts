// TFLite lays image tensors out NHWC; ONNX Conv, pooling and Resize want NCHW.
export const NHWC_TO_NCHW = [0, 3, 1, 2];
export const NCHW_TO_NHWC = [0, 2, 3, 1];

// Where an NHWC axis (possibly negative) of a 4-D tensor lives in its NCHW form: NCHW axis j holds
// NHWC axis NHWC_TO_NCHW[j].
export function nchwAxis(nhwcAxis: number): number {
  return NHWC_TO_NCHW.indexOf(nhwcAxis < 0 ? nhwcAxis + 4 : nhwcAxis);
}

export function permuteShape(shape: number[], perm: number[]): number[] {
  return perm.map((axis) => shape[axis]);
}

// Output axis j takes input axis perm[j], as ONNX Transpose does.
export function transposeData(values: Float32Array, shape: number[], perm: number[]): Float32Array {
  const outShape = permuteShape(shape, perm);
  const inStrides = strides(shape);
  const stepForOutAxis = perm.map((axis) => inStrides[axis]);
  const out = new Float32Array(values.length);
  const index = new Array<number>(shape.length).fill(0);
  for (let o = 0; o < out.length; o++) {
    let source = 0;
    for (let axis = 0; axis < index.length; axis++) source += index[axis] * stepForOutAxis[axis];
    out[o] = values[source];
    for (let axis = index.length - 1; axis >= 0 && ++index[axis] === outShape[axis]; axis--) index[axis] = 0;
  }
  return out;
}

function strides(shape: number[]): number[] {
  const result = new Array<number>(shape.length);
  let stride = 1;
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    result[axis] = stride;
    stride *= shape[axis];
  }
  return result;
}
