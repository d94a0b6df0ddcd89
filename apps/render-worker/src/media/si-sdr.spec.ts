import { siSdr } from './si-sdr';

describe('siSdr', () => {
  const reference = Array.from({ length: 1000 }, (_, i) => Math.sin(i / 7) + 0.3 * Math.sin(i / 3));

  it('ignores the gain and offset of the estimate', () => {
    const scaled = reference.map((x) => 0.25 * x + 3);
    expect(siSdr(scaled, reference)).toBeGreaterThan(100);
  });

  it('gives 0 dB when the distortion has the energy of the reference part', () => {
    // An orthogonal distortion of equal energy: cos is orthogonal to sin over whole periods.
    const n = 1400;
    const ref = Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * 7 * i) / n));
    const est = ref.map((x, i) => x + Math.cos((2 * Math.PI * 7 * i) / n));
    expect(siSdr(est, ref)).toBeCloseTo(0, 6);
  });

  it('gives 20 dB for a distortion one tenth of the reference in amplitude', () => {
    const n = 1400;
    const ref = Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * 5 * i) / n));
    const est = ref.map((x, i) => x + 0.1 * Math.sin((2 * Math.PI * 11 * i) / n));
    expect(siSdr(est, ref)).toBeCloseTo(20, 6);
  });

  it('rejects signals of different lengths', () => {
    expect(() => siSdr([1, 2], [1, 2, 3])).toThrow(/same/);
  });
});
