// The media core of the render worker: what the job processors use.
export { cleanAudioVideo, DEFAULT_MAX_AUDIO_SECONDS, type AudioFigures, type CleanAudioQuality, type CleanAudioVideoRequest, type CleanedVideo, type KeptStems } from './clean-audio-video';
export { AbortError, isAbortError, MediaError } from './media-error';
export type { AudioStreamProbe, MediaProbe, VideoStreamProbe } from './parse-probe';
export { probeMedia, type ProbeRequest } from './probe';
export { DENOISER_MODULES, RNNOISE_FILTER } from './denoise-command';
export { WarmNodeProcesses } from './warm-node-processes';
export {
  ProcessFailedError,
  ProcessRunner,
  type CommandRunner,
  type ProcessCommand,
  type RunOptions,
  type RunResult,
} from './process-runner';
