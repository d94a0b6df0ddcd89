import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SHARED_VIDEO = join(__dirname, '..', '..', '..', 'shared', 'media', 'video');

// Real people from ../shared/media/video when it is there (looped and scaled), a test picture otherwise;
// 30 fps H.264 with AAC sound, as a phone or webcam would give. `small`: the webcam picture at 30 %
// of the frame's height, moving across a still background, so the person is small and tracked;
// `two`: two of them, crossing in opposite directions (a region each while apart).
export type People = 'webcam' | 'small' | 'two';

export async function makeClip(path: string, size: string, seconds: number, people: People): Promise<string> {
  const [width, height] = size.split('x').map(Number);
  const source = join(SHARED_VIDEO, 'again.mkv');
  const picture = existsSync(source) ? ['-stream_loop', '-1', '-i', source] : ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`];
  const small = Math.round((height! * 0.3) / 2) * 2;
  // A still room: a fixed seed (the gradients source otherwise draws a new one every run), no rotation
  // (its least speed turns it a thousandth of a degree a second), and a fixed grain for the texture a
  // wall shows a camera, which the camera-motion and plate checks read.
  const room = `gradients=s=${size}:c0=0x6d5d4b:c1=0xc9c2b3:r=30:d=${seconds}:seed=1:speed=0.00001,noise=alls=10[room]`;
  const graphs: Record<People, string> = {
    webcam: `[0:v]scale=${width}:${height},fps=30[v]`,
    small: `${room};[0:v]scale=-2:${small},fps=30[person];[room][person]overlay=x='(W-w)*t/${seconds}':y=H-h-12:shortest=1[v]`,
    two: `${room};[0:v]scale=-2:${small},fps=30,split[left][right];[room][left]overlay=x='(W-w)*t/${seconds}':y=H-h-12:shortest=1[one];[one][right]overlay=x='(W-w)*(1-t/${seconds})':y=H-h-12:shortest=1[v]`,
  };
  const graph = graphs[people];
  await run('ffmpeg', [
    '-v', 'error', '-y', ...picture, '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000',
    '-filter_complex', graph, '-map', '[v]', '-map', '1:a', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', path,
  ]);
  const content = existsSync(source) ? 'people (shared/media/video/again.mkv, looped)' : 'testsrc2';
  if (people === 'webcam') return content;
  return `${people === 'two' ? 'two of ' : ''}${content} at 30 % of the height, ${people === 'two' ? 'crossing' : 'moving across'} a still background`;
}
