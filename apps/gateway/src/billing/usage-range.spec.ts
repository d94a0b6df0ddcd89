import { ApiError } from '../http/api-error';
import { usageRange } from './usage-range';

const NOW = new Date('2025-06-15T12:00:00Z');
const at = (iso: string) => new Date(iso);

function refusal(query: { from?: Date; to?: Date }): ApiError {
  try {
    usageRange(query, NOW);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('usageRange accepted the query');
}

describe('usageRange', () => {
  it('defaults to the 30 days up to now', () => {
    expect(usageRange({}, NOW)).toEqual({ from: at('2025-05-16T12:00:00Z'), to: NOW });
  });

  it('defaults from to 30 days before a given to', () => {
    expect(usageRange({ to: at('2025-02-01T00:00:00Z') }, NOW)).toEqual({ from: at('2025-01-02T00:00:00Z'), to: at('2025-02-01T00:00:00Z') });
  });

  it('defaults to to now when only from is given', () => {
    expect(usageRange({ from: at('2025-06-01T00:00:00Z') }, NOW)).toEqual({ from: at('2025-06-01T00:00:00Z'), to: NOW });
  });

  it('accepts exactly 366 days', () => {
    expect(() => usageRange({ from: at('2024-01-01T00:00:00Z'), to: at('2025-01-01T00:00:00Z') }, NOW)).not.toThrow();
  });

  it.each([
    ['from after to', { from: at('2025-02-02T00:00:00Z'), to: at('2025-02-01T00:00:00Z') }, 'from must be before to'],
    ['from equal to to', { from: at('2025-02-01T00:00:00Z'), to: at('2025-02-01T00:00:00Z') }, 'from must be before to'],
    ['from in the future with no to', { from: at('2025-07-01T00:00:00Z') }, 'from must be before to'],
    ['more than 366 days', { from: at('2024-01-01T00:00:00Z'), to: at('2025-01-01T00:00:01Z') }, 'at most 366 days'],
  ])('refuses %s with 422 naming from', (_name, query, message) => {
    const error = refusal(query);
    expect(error.status).toBe(422);
    expect(error.details).toEqual([{ type: 'invalid_value', field: 'from', message: expect.stringContaining(message) }]);
  });
});
