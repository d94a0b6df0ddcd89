// Containers the estimate reads. Playlist and manifest demuxers (hls, dash, concat...) are left out:
// they make ffprobe open URLs named inside the user's file, around the SSRF guard (an uploaded HLS
// playlist probed through its presigned URL would send requests anywhere). Other formats get no
// estimate, and billing quotes the maximum.
export const ESTIMATE_CONTAINERS = ['mov', 'matroska', 'avi', 'flv', 'mpegts', 'mpeg', 'asf', 'ogg', 'mxf'] as const;

// ffprobe input options for the estimate: the protocols the input needs and nothing else.
export function probeInputOptions(protocols: readonly string[]): string[] {
  return ['-protocol_whitelist', protocols.join(','), '-format_whitelist', ESTIMATE_CONTAINERS.join(',')];
}
