import { median, percentile } from './stats';

describe('bench stats', () => {
  it('takes the nearest rank, whatever the order of the values', () => {
    const values = [5, 1, 4, 2, 3];
    expect(median(values)).toBe(3);
    expect(percentile(values, 99)).toBe(5);
    expect(percentile(values, 20)).toBe(1);
    expect(percentile(values, 0)).toBe(1);
    expect(values).toEqual([5, 1, 4, 2, 3]);
  });

  it('answers NaN for no values', () => {
    expect(median([])).toBeNaN();
    expect(percentile([], 99)).toBeNaN();
  });
});
