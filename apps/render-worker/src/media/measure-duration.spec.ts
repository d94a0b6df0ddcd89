import { billableSeconds, measureArgs, progressOf } from './measure-duration';

describe('measureDuration builders', () => {
  it('copies every picture and sound packet of the fenced input to the null muxer, a second past the limit', () => {
    const args = measureArgs({ inputPath: '/w/input', maxSeconds: 60 });
    expect(args.slice(args.indexOf('-protocol_whitelist'), args.indexOf('-protocol_whitelist') + 2)).toEqual(['-protocol_whitelist', 'file']);
    expect(args).toContain('-format_whitelist');
    expect(args.slice(args.indexOf('-i'))).toEqual(['-i', '/w/input', '-map', '0:V?', '-map', '0:a?', '-c', 'copy', '-t', '61', '-f', 'null', '-']);
    expect(args.slice(0, 7)).toEqual(['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1']);
  });

  it('reads the last out_time_us and frame count of the progress report', () => {
    expect(progressOf('frame=10\nout_time_us=1000000\nprogress=continue\nframe=75\nout_time_us=3018594\nprogress=end\n')).toEqual({ seconds: 3.018594, videoFrames: 75 });
    expect(progressOf('frame=0\nout_time_us=0\nprogress=end\n')).toBeNull();
    expect(progressOf('')).toBeNull();
  });

  it("bills the header's duration when the packets confirm it, and the packets' when there is none or it lies", () => {
    expect(billableSeconds(3, 3.018594)).toBe(3);
    expect(billableSeconds(3, 2.88)).toBe(3);
    expect(billableSeconds(2, 60.02)).toBe(60.02);
    expect(billableSeconds(60, 30)).toBe(30);
    expect(billableSeconds(null, 12.3)).toBe(12.3);
  });
});
