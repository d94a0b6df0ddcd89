import type { Size } from './walk-path';
import { readFrames } from './ffmpeg-io';

// A still, room-like background (rgb24): a wall's light falloff and some texture, the same every run
// (both sources draw at random unless seeded); with a seed, the falloff's direction and spread drawn
// from it. The noise is added in YUV: on the gradient's RGBA it left only a green channel of noise.
export async function roomPicture(size: Size, seed?: number): Promise<Uint8Array> {
  const falloff = seed === undefined ? `x0=0:y0=0:x1=${size.width}:y1=${size.height}:seed=0` : `seed=${seed}`;
  const source = `gradients=s=${size.width}x${size.height}:c0=0x6d5d4b:c1=0xc9c2b3:${falloff},format=yuv444p,noise=alls=6:allf=0:all_seed=1,format=rgb24`;
  const [picture] = await readFrames(['-f', 'lavfi', '-i', source, '-frames:v', '1', '-pix_fmt', 'rgb24'], size.width * size.height * 3);
  return picture!;
}
