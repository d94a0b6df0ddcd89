import type { MediaProbe } from '../media';

// The duration a probe tells for the whole video, in seconds as ffprobe gives them (billing rounds), or
// null. From only the start of a file, ffprobe reports the length of the part it read for a fragmented
// MP4, an MPEG-TS or an AVI, which would quote a long video as a short one; so a prefix counts only
// where the header states the duration: Matroska/WebM's Info element, or an MP4 moov with sample
// tables (a fragmented one has none, so no frame count).
export function probedDuration(probe: MediaProbe, wholeFile: boolean): number | null {
  const seconds = probe.durationSeconds ?? probe.audio?.durationSeconds ?? null;
  if (seconds === null || wholeFile) return seconds;
  return headerStatesDuration(probe) ? seconds : null;
}

function headerStatesDuration(probe: MediaProbe): boolean {
  const demuxers = probe.formatName.split(',');
  if (demuxers.includes('matroska')) return true;
  return demuxers.includes('mov') && probe.video?.nbFrames != null;
}
