import { decodeFloat16, float16ToNumber } from './tensor-data';

describe('float16 decoding', () => {
  it.each([
    ['0x0000', 0x0000, 0],
    ['0x3c00', 0x3c00, 1],
    ['0xc000', 0xc000, -2],
    ['0x3555', 0x3555, 0.333251953125],
    ['0x7bff (largest normal)', 0x7bff, 65504],
    ['0x0400 (smallest normal)', 0x0400, 2 ** -14],
    ['0x0001 (smallest subnormal)', 0x0001, 2 ** -24],
    ['0x7c00', 0x7c00, Infinity],
    ['0xfc00', 0xfc00, -Infinity],
  ])('reads %s as %s', (_, bits, value) => {
    expect(float16ToNumber(bits)).toBe(value);
  });

  it('reads NaN', () => {
    expect(float16ToNumber(0x7e00)).toBeNaN();
  });

  it('decodes a little-endian buffer', () => {
    expect(Array.from(decodeFloat16(new Uint8Array([0x00, 0x3c, 0x00, 0xc0])))).toEqual([1, -2]);
  });
});
