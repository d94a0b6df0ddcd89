import { readFile } from 'node:fs/promises';

// The SHA-256 of a picture stream's packets from ffmpeg's streamhash muxer (`0,v,SHA256=<hex>`).
export function pictureHashOf(text: string): string {
  const hash = /^\d+,v,SHA256=([0-9a-f]{64})$/m.exec(text);
  if (!hash) throw new Error(`streamhash wrote no picture hash: ${JSON.stringify(text.slice(0, 200))}`);
  return hash[1];
}

export async function readPictureHash(path: string): Promise<string> {
  return pictureHashOf(await readFile(path, 'utf8'));
}
