import { plateOverrides } from './plate-overrides';

describe('plateOverrides', () => {
  it('takes plate settings of the defaults\' types', () => {
    expect(plateOverrides('{"differWeight":7,"everyRow":true,"shadowRatios":[0.5,0.9]}')).toEqual({ differWeight: 7, everyRow: true, shadowRatios: [0.5, 0.9] });
    expect(plateOverrides('{}')).toEqual({});
    const shadowTexture = { reach: 1, correlationFrom: 0.5, textureFrom: 1, shareFrom: 0.2, ownTextureFrom: 3 };
    expect(plateOverrides(JSON.stringify({ shadowTexture }))).toEqual({ shadowTexture });
  });

  it.each([
    ['not JSON', '{differWeight:7}', /not JSON/],
    ['not an object', '[1]', /an object/],
    ['an unknown key', '{"diferWeight":7}', /diferWeight is not a plate setting/],
    ['a string for a number', '{"reach":"9"}', /reach must be like 6/],
    ['a pair of the wrong length', '{"shadowRatios":[0.5]}', /shadowRatios must be like/],
    ['a number for a boolean', '{"everyRow":1}', /everyRow must be like false/],
    ['an inherited key', '{"constructor":1}', /not a plate setting/],
    ['an object missing a key', '{"shadowTexture":{"reach":1,"correlationFrom":0.5}}', /shadowTexture must be like/],
    ['an object with a key of its own', '{"shadowTexture":{"reach":1,"correlationFrom":0.5,"textureFrom":1,"shareFrom":0.2,"ownTextureFrom":3,"more":1}}', /shadowTexture must be like/],
    ['an array for an object', '{"shadowTexture":[1,2,3]}', /shadowTexture must be like/],
  ])('refuses %s', (_what, json, error) => {
    expect(() => plateOverrides(json)).toThrow(error);
  });
});
