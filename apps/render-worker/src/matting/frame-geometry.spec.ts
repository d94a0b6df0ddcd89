import { frameGeometry, MAX_MATTING_PICTURE, MIN_SIDE } from './frame-geometry';

describe('frameGeometry', () => {
  it('leaves an upright picture with even sides within 3840x2160 as it is', () => {
    expect(frameGeometry({ width: 1920, height: 1080, rotation: 0 })).toEqual({ width: 1920, height: 1080, filters: [] });
  });

  it.each([
    [90, 'transpose=clock'],
    [270, 'transpose=cclock'],
  ])('turns a picture shown %i degrees clockwise upright with %s and swaps its sides', (rotation, filter) => {
    expect(frameGeometry({ width: 1920, height: 1080, rotation })).toEqual({ width: 1080, height: 1920, filters: [filter] });
  });

  it('turns a picture shown upside down with two flips and keeps its sides', () => {
    expect(frameGeometry({ width: 1920, height: 1080, rotation: 180 })).toEqual({ width: 1920, height: 1080, filters: ['hflip', 'vflip'] });
  });

  it('accepts 3840x2160 either way up without scaling', () => {
    expect(frameGeometry({ width: 3840, height: 2160, rotation: 0 }).filters).toEqual([]);
    expect(frameGeometry({ width: 2160, height: 3840, rotation: 0 }).filters).toEqual([]);
    expect(frameGeometry({ width: 3840, height: 2160, rotation: 90 })).toEqual({ width: 2160, height: 3840, filters: ['transpose=clock'] });
  });

  it('scales 8K landscape down to 3840x2160 with area averaging', () => {
    expect(frameGeometry({ width: 7680, height: 4320, rotation: 0 })).toEqual({ width: 3840, height: 2160, filters: ['scale=3840:2160:flags=area'] });
  });

  it('scales 8K portrait down to 2160x3840', () => {
    expect(frameGeometry({ width: 4320, height: 7680, rotation: 0 })).toEqual({ width: 2160, height: 3840, filters: ['scale=2160:3840:flags=area'] });
  });

  it('turns a picture first, then scales it to fit upright', () => {
    // Stored 7680x4320, shown 4320x7680: the decoder runs with -noautorotate, so the turn is ours.
    expect(frameGeometry({ width: 7680, height: 4320, rotation: 90 })).toEqual({
      width: 2160,
      height: 3840,
      filters: ['transpose=clock', 'scale=2160:3840:flags=area'],
    });
  });

  it('scales by the short side when only it is over the limit, keeping both sides even', () => {
    // 3000 * 0.72 = 2160 and 4000 * 0.72 = 2880.
    expect(frameGeometry({ width: 4000, height: 3000, rotation: 0 })).toEqual({ width: 2880, height: 2160, filters: ['scale=2880:2160:flags=area'] });
  });

  it('rounds a scaled odd side down to an even one', () => {
    // DCI 4K: 2160 * 3840 / 4096 = 2025.
    expect(frameGeometry({ width: 4096, height: 2160, rotation: 0 })).toEqual({ width: 3840, height: 2024, filters: ['scale=3840:2024:flags=area'] });
  });

  it('crops an odd last column and row instead of resampling', () => {
    expect(frameGeometry({ width: 1921, height: 1081, rotation: 0 })).toEqual({ width: 1920, height: 1080, filters: ['crop=1920:1080:0:0'] });
    expect(frameGeometry({ width: 640, height: 481, rotation: 0 })).toEqual({ width: 640, height: 480, filters: ['crop=640:480:0:0'] });
  });

  it('turns a picture first, then crops its odd sides as they are upright', () => {
    expect(frameGeometry({ width: 1081, height: 1921, rotation: 270 })).toEqual({
      width: 1920,
      height: 1080,
      filters: ['transpose=cclock', 'crop=1920:1080:0:0'],
    });
  });

  it('gives the limiting side exactly the limit, whatever the floating-point rounding of the scale', () => {
    expect(frameGeometry({ width: 4269, height: 2000, rotation: 0 })).toMatchObject({ width: 3840 });
    expect(frameGeometry({ width: 5000, height: 4280, rotation: 0 })).toMatchObject({ height: 2160 });
  });

  it('keeps at least 14 pixels a side for the most extreme shapes the limits accept, either way up', () => {
    const { maxSide } = MAX_MATTING_PICTURE;
    expect(frameGeometry({ width: MIN_SIDE, height: maxSide, rotation: 0 })).toEqual({ width: 14, height: 3840, filters: ['scale=14:3840:flags=area'] });
    expect(frameGeometry({ width: maxSide, height: MIN_SIDE, rotation: 0 })).toEqual({ width: 3840, height: 14, filters: ['scale=3840:14:flags=area'] });
    expect(frameGeometry({ width: MIN_SIDE, height: 2048, rotation: 90 })).toEqual({ width: 2048, height: 16, filters: ['transpose=clock'] });
  });

  it('never scales a side to nothing, even past the limits: 2 pixels at least', () => {
    expect(frameGeometry({ width: 17, height: 70_000, rotation: 0 })).toMatchObject({ width: 2, height: 3840 });
    expect(frameGeometry({ width: 70_000, height: 1, rotation: 0 })).toMatchObject({ width: 3840, height: 2 });
  });
});
