import { PngSplitter } from './png-splitter';
import { fakePng } from './testing/matte-tools';

describe('PngSplitter', () => {
  const pictures = [fakePng(1, 10), fakePng(2, 70_000), fakePng(3, 0)];
  const stream = Buffer.concat(pictures);

  it.each([1, 7, 4096, stream.length])('cuts PNGs written back to back into one buffer each, read %i bytes at a time', (size) => {
    const splitter = new PngSplitter();
    const found: Buffer[] = [];
    for (let at = 0; at < stream.length; at += size) found.push(...splitter.push(stream.subarray(at, at + size)));
    expect(found).toEqual(pictures);
    expect(splitter.partial).toBe(false);
  });

  it('says when a PNG is cut short, and refuses what is not a PNG', () => {
    const splitter = new PngSplitter();
    expect(splitter.push(stream.subarray(0, 100))).toEqual([pictures[0]]);
    expect(splitter.partial).toBe(true);
    expect(() => new PngSplitter().push(Buffer.from('RIFF....WAVEfmt '))).toThrow('something other than a PNG');
  });
});
