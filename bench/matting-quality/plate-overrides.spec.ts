import { plateOverrides } from './plate-overrides';

describe('plateOverrides', () => {
  it('takes plate settings of the defaults\' types', () => {
    expect(plateOverrides('{"differWeight":7,"everyRow":true,"shadowRatios":[0.5,0.9]}')).toEqual({ differWeight: 7, everyRow: true, shadowRatios: [0.5, 0.9] });
    expect(plateOverrides('{}')).toEqual({});
  });

  it.each([
    ['not JSON', '{differWeight:7}', /not JSON/],
    ['not an object', '[1]', /an object/],
    ['an unknown key', '{"diferWeight":7}', /diferWeight is not a plate setting/],
    ['a string for a number', '{"reach":"9"}', /reach must be like 6/],
    ['a pair of the wrong length', '{"shadowRatios":[0.5]}', /shadowRatios must be like/],
    ['a number for a boolean', '{"everyRow":1}', /everyRow must be like false/],
    ['an inherited key', '{"constructor":1}', /not a plate setting/],
  ])('refuses %s', (_what, json, error) => {
    expect(() => plateOverrides(json)).toThrow(error);
  });
});
