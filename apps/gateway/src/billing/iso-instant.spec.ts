import { parseIsoInstant } from './iso-instant';

describe('parseIsoInstant', () => {
  it.each([
    ['2025-01-31', '2025-01-31T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2025-01-31T12:00', '2025-01-31T12:00:00.000Z'],
    ['2025-01-31T12:00:05Z', '2025-01-31T12:00:05.000Z'],
    ['2025-01-31T12:00:05.25Z', '2025-01-31T12:00:05.250Z'],
    ['2025-01-31T12:00:05.123456789Z', '2025-01-31T12:00:05.123Z'],
    ['2025-01-31T01:00:00+02:00', '2025-01-30T23:00:00.000Z'],
    ['2025-01-31T23:00:00-05:30', '2025-02-01T04:30:00.000Z'],
  ])('reads %s as %s', (value, instant) => {
    expect(parseIsoInstant(value)?.toISOString()).toBe(instant);
  });

  it.each([
    ['', 'empty'],
    ['yesterday', 'not a date'],
    ['2025-1-31', 'a one-digit month'],
    ['2025-02-29', 'a day that does not exist'],
    ['2025-04-31', 'the 31st of a 30-day month'],
    ['2025-00-10', 'month 0'],
    ['2025-01-31T24:00', 'hour 24'],
    ['2025-01-31T12:60', 'minute 60'],
    ['2025-01-31T12:00:60Z', 'a leap second'],
    ['2025-01-31T12:00:00+25:00', 'an offset past 24 hours'],
    ['2025-01-31 12:00:00Z', 'a space for T'],
    ['2025-01-31T12Z', 'no minutes'],
    ['2025-W05', 'a week date'],
    ['2025-031', 'an ordinal date'],
    ['1738324800', 'a Unix timestamp'],
  ])('refuses %j (%s)', (value) => {
    expect(parseIsoInstant(value)).toBeNull();
  });
});
