import { ModelsFileError, parseModels } from './models-file';

const GENERAL = { path: 'general.onnx', width: 320, height: 320 };

function problems(declared: unknown): string {
  try {
    parseModels(declared, '/etc/models');
  } catch (error) {
    expect(error).toBeInstanceOf(ModelsFileError);
    return (error as Error).message;
  }
  throw new Error('parseModels accepted the file');
}

describe('parseModels', () => {
  it('reads a general model, resolving its relative path against the file’s folder, with the defaults', () => {
    expect(parseModels({ general: GENERAL }, '/etc/models')).toEqual({
      general: [
        {
          name: 'general',
          path: '/etc/models/general.onnx',
          width: 320,
          height: 320,
          layout: 'nchw',
          mean: [0, 0, 0],
          std: [1, 1, 1],
          output: 'probability',
        },
      ],
    });
  });

  it('keeps an absolute path as it is', () => {
    expect(parseModels({ general: { ...GENERAL, path: '/models/general.onnx' } }, '/etc/models').general?.[0].path).toBe('/models/general.onnx');
  });

  it('reads a list of variants for a person model with every setting given', () => {
    const variant = { layout: 'nhwc', mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], output: 'logit' } as const;
    expect(
      parseModels(
        {
          person: [
            { ...variant, path: 'square.onnx', width: 256, height: 256 },
            { ...variant, path: 'wide.onnx', width: 256, height: 144 },
          ],
        },
        '/etc/models',
      ),
    ).toEqual({
      person: [
        { name: 'person', path: '/etc/models/square.onnx', width: 256, height: 256, ...variant },
        { name: 'person', path: '/etc/models/wide.onnx', width: 256, height: 144, ...variant },
      ],
    });
  });

  it('accepts an empty object: no extra models', () => {
    expect(parseModels({}, '/etc/models')).toEqual({});
  });

  it('reports every problem at once, naming the file', () => {
    expect(
      problems({
        person: { path: 'p.onnx', width: 8, height: 256, layout: 'nhcw', std: [1, 0, 1], extra: true },
        background: GENERAL,
      }),
    ).toBe(
      'MATTING_MODELS_FILE: ' +
        [
          'person.extra: unknown property',
          'person.width: an integer from 16 to 2048 is required',
          'person.layout: one of nchw, nhwc is required',
          'person.std: three positive numbers are required',
          'unknown model "background" (known: person, general)',
        ].join('; '),
    );
  });

  it('names the variant by its place in a list', () => {
    expect(problems({ general: [GENERAL, { ...GENERAL, height: 320.5, output: 'mask' }] })).toBe(
      'MATTING_MODELS_FILE: general[1].height: an integer from 16 to 2048 is required; general[1].output: one of probability, logit is required',
    );
  });

  it.each([
    ['a missing path', { width: 320, height: 320 }, 'general.path: a file path is required'],
    ['an empty path', { ...GENERAL, path: '' }, 'general.path: a file path is required'],
    ['a width over 2048', { ...GENERAL, width: 4096 }, 'general.width: an integer from 16 to 2048 is required'],
    ['a height given as a string', { ...GENERAL, height: '320' }, 'general.height: an integer from 16 to 2048 is required'],
    ['a mean of two numbers', { ...GENERAL, mean: [0.5, 0.5] }, 'general.mean: three numbers are required'],
    ['a negative std', { ...GENERAL, std: [1, -1, 1] }, 'general.std: three positive numbers are required'],
    ['a layout of the wrong case', { ...GENERAL, layout: 'NCHW' }, 'general.layout: one of nchw, nhwc is required'],
  ])('refuses %s', (_what, variant, problem) => {
    expect(problems({ general: variant })).toBe(`MATTING_MODELS_FILE: ${problem}`);
  });

  it('refuses an empty list of variants', () => {
    expect(problems({ general: [] })).toBe('MATTING_MODELS_FILE: general: no variant declared');
  });

  it('refuses a variant that is not an object', () => {
    expect(problems({ general: ['general.onnx'] })).toBe(
      'MATTING_MODELS_FILE: ' +
        [
          'general[0]: must be an object',
          'general[0].path: a file path is required',
          'general[0].width: an integer from 16 to 2048 is required',
          'general[0].height: an integer from 16 to 2048 is required',
        ].join('; '),
    );
  });

  it.each([
    ['null', null],
    ['a list', [GENERAL]],
    ['a string', 'general.onnx'],
  ])('refuses %s in place of an object', (_what, declared) => {
    expect(problems(declared)).toBe('MATTING_MODELS_FILE: must hold a JSON object');
  });

  it('names the file it read in its error', () => {
    expect(() => parseModels({ extra: {} }, '/etc/models', '/etc/models/models.json')).toThrow(
      '/etc/models/models.json: unknown model "extra" (known: person, general)',
    );
  });
});
