import { existsSync } from 'node:fs';
import { join } from 'node:path';

// ../shared/media beside the repository: real recordings, absent from a plain clone.
export const SHARED_MEDIA_DIR = join(__dirname, '..', '..', '..', 'shared', 'media');

export function sharedMediaAvailable(): boolean {
  const available = existsSync(SHARED_MEDIA_DIR);
  if (!available) console.warn(`skipping tests on real media: ${SHARED_MEDIA_DIR} is absent`);
  return available;
}
