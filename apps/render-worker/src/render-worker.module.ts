import { Module, type DynamicModule } from '@nestjs/common';
import { BillingRpcClient, JetStreamConsumers, JetStreamConsumersLifecycle, JetStreamPublisher, JobsRpcClient, NATS_CONNECTION } from '@vj/messaging';
import type { ObjectStorage } from '@vj/storage';
import type { NatsConnection } from 'nats';
import { availableParallelism, hostname } from 'node:os';
import { DurationProbe } from './estimate/duration-probe';
import { AllowList } from '@vj/egress';
import { JobInputSource } from './input/job-input-source';
import { BackgroundImages } from './matting/background-image';
import { removeBackground } from './matting/remove-background';
import type { MattingModelRegistry } from './matting/model-registry';
import { DENOISER_MODULES, ProcessRunner, RNNOISE_FILTER, WarmNodeProcesses } from './media';
import { CancelListener } from './messaging/cancel-listener';
import { JetStreamProgressSink } from './messaging/jetstream-progress-sink';
import { JetStreamReportSink } from './messaging/jetstream-report-sink';
import { MediaRpcLifecycle } from './messaging/media-rpc.lifecycle';
import { PROGRESS_SINK } from './processing/progress-reporter';
import { JobsRpcStatusReader } from './messaging/jobs-rpc-status-reader';
import { workDeadLetterHandlers, workHandlers } from './messaging/work-handlers';
import { MODERATION_POLICY, type ModerationPolicy } from './moderation/moderation-policy';
import { CancellationRegistry } from './processing/cancellation-registry';
import { FailDeadLetteredJobUseCase } from './processing/fail-dead-lettered-job.use-case';
import { AttemptReports } from './processing/attempt-reports';
import { InputPreparation } from './processing/input-preparation';
import { ResultUploader } from './processing/result-uploader';
import { FfmpegInputMeasurer } from './media/ffmpeg-input-measurer';
import { BillingRpcFunding } from './messaging/billing-rpc-funding';
import {
  INPUT_MEASURER,
  INPUT_SOURCE,
  JOB_FUNDING,
  JOB_PROCESSORS,
  JOB_STATUS_READER,
  REPORT_SINK,
  RESULT_STORE,
  WORKER_SETTINGS,
  type JobProcessors,
  type WorkerSettings,
} from './processing/ports';
import { ProcessJobUseCase } from './processing/process-job.use-case';
import { CleanAudioVideoProcessor } from './processors/clean-audio-video.processor';
import { VideoBackgroundRemovalProcessor } from './processors/video-background-removal.processor';
import { BackgroundRemovalPieces } from './pieces/background-removal-pieces';
import { PIECE_LIMITS, PIECE_OBJECTS, RunPieceUseCase } from './pieces/run-piece.use-case';
import type { RenderWorkerConfig } from './render-worker.env';
import { workConsumer } from './work-consumer';
import { UPLOAD_MARGIN_MS } from './work-consumer';
import { ProcessingMetrics } from './metrics/processing-metrics';
import { withRegisteredProcessors } from './processing/job-processors';

export interface RenderWorkerDependencies {
  config: RenderWorkerConfig;
  nc: NatsConnection;
  storage: ObjectStorage;
  moderation: ModerationPolicy;
  models: MattingModelRegistry;
}

@Module({})
export class RenderWorkerModule {
  static register({ config, nc, storage, moderation, models }: RenderWorkerDependencies): DynamicModule {
    // Each running job gets its share of the cores: concurrent jobs do not fight over them.
    const denoisers = config.CLEAN_AUDIO_DENOISERS || Math.max(1, Math.floor(availableParallelism() / config.WORKER_CONCURRENCY));
    const warmDenoisers = new WarmNodeProcesses({ scripts: [RNNOISE_FILTER], prepare: DENOISER_MODULES, size: config.CLEAN_AUDIO_WARM_DENOISERS ?? denoisers });
    warmDenoisers.fill();
    const allowHosts = AllowList.parse(config.TRANSLOAD_ALLOW_HOSTS);
    const backgroundRemoval = {
      maxSeconds: config.BACKGROUND_REMOVAL_MAX_SECONDS,
      maxResultBytes: config.BACKGROUND_REMOVAL_MAX_RESULT_BYTES,
      timeLimitMs: config.BACKGROUND_REMOVAL_TIMEOUT_SECONDS * 1000,
      ffmpegPath: config.FFMPEG_PATH,
      ffprobePath: config.FFPROBE_PATH,
      keepMatte: config.BACKGROUND_REMOVAL_KEEP_MATTE === 'true',
    };
    const backgroundImages = new BackgroundImages({
      maxBytes: config.BACKGROUND_IMAGE_MAX_BYTES,
      timeoutMs: config.TRANSLOAD_TIMEOUT_SECONDS * 1000,
      allowHosts,
      storage,
      ffprobePath: config.FFPROBE_PATH,
    });
    const pieces = new BackgroundRemovalPieces(
      {
        ...backgroundRemoval,
        // Only a video the job type accepts and one worker would not run alone is cut.
        ...(config.BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS < config.BACKGROUND_REMOVAL_MAX_SECONDS && { segmentAfterSeconds: config.BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS }),
        segmentSeconds: config.BACKGROUND_REMOVAL_SEGMENT_SECONDS,
        warmupSeconds: config.BACKGROUND_REMOVAL_WARMUP_SECONDS,
      },
      models,
      backgroundImages,
    );
    const processors: JobProcessors = {
      'clean-audio-video': new CleanAudioVideoProcessor({
        maxAudioSeconds: config.CLEAN_AUDIO_MAX_SECONDS,
        timeLimitMs: config.CLEAN_AUDIO_TIMEOUT_SECONDS * 1000,
        denoisers,
        keepStems: config.CLEAN_AUDIO_KEEP_STEMS === 'true',
        ffmpegPath: config.FFMPEG_PATH,
        ffprobePath: config.FFPROBE_PATH,
        warmDenoisers,
      }),
      'video-background-removal': new VideoBackgroundRemovalProcessor(backgroundRemoval, models, removeBackground, backgroundImages, pieces),
    };
    const settings: WorkerSettings = {
      workerId: `${hostname()}:${process.pid}`,
      maxFailedAttempts: config.WORK_MAX_ATTEMPTS,
      workDir: config.WORK_DIR,
      transloadTimeoutMs: config.TRANSLOAD_TIMEOUT_SECONDS * 1000,
      uploadMarginMs: UPLOAD_MARGIN_MS,
      // "at most every second" (decision 0030): enough for a progress bar, little for the stream.
      progressIntervalMs: 1000,
    };
    // Processing time and frames per second by job type, for /metrics.
    const metrics = new ProcessingMetrics();
    const inputs = new JobInputSource(storage, {
      maxBytes: config.TRANSLOAD_MAX_BYTES,
      uploadMaxBytes: config.UPLOAD_INPUT_MAX_BYTES,
      timeoutMs: config.TRANSLOAD_TIMEOUT_SECONDS * 1000,
      allowHosts,
    });
    const durationProbe = new DurationProbe(storage, new ProcessRunner(), {
      timeoutMs: config.DURATION_PROBE_TIMEOUT_MS,
      maxBytes: config.DURATION_PROBE_MAX_BYTES,
      concurrency: config.DURATION_PROBE_CONCURRENCY,
      allowHosts,
      workDir: config.WORK_DIR,
      ffprobePath: config.FFPROBE_PATH,
    });
    return {
      module: RenderWorkerModule,
      providers: [
        CancellationRegistry,
        AttemptReports,
        InputPreparation,
        ResultUploader,
        ProcessJobUseCase,
        RunPieceUseCase,
        { provide: BackgroundRemovalPieces, useValue: pieces },
        { provide: PIECE_OBJECTS, useValue: storage },
        { provide: PIECE_LIMITS, useValue: { maxInputBytes: Math.max(config.TRANSLOAD_MAX_BYTES, config.UPLOAD_INPUT_MAX_BYTES), maxResultBytes: config.BACKGROUND_REMOVAL_MAX_RESULT_BYTES } },
        FailDeadLetteredJobUseCase,
        CancelListener,
        { provide: NATS_CONNECTION, useValue: nc },
        { provide: JOB_STATUS_READER, useValue: new JobsRpcStatusReader(new JobsRpcClient(nc)) },
        { provide: REPORT_SINK, useValue: new JetStreamReportSink(new JetStreamPublisher(nc)) },
        { provide: PROGRESS_SINK, useValue: new JetStreamProgressSink(new JetStreamPublisher(nc)) },
        { provide: INPUT_SOURCE, useValue: inputs },
        { provide: INPUT_MEASURER, useValue: metrics.measurer(new FfmpegInputMeasurer(new ProcessRunner(), { ffmpegPath: config.FFMPEG_PATH, ffprobePath: config.FFPROBE_PATH })) },
        { provide: JOB_FUNDING, useValue: new BillingRpcFunding(new BillingRpcClient(nc)) },
        { provide: MODERATION_POLICY, useValue: moderation },
        { provide: JOB_PROCESSORS, useValue: metrics.processors(withRegisteredProcessors(processors, { ffmpegPath: config.FFMPEG_PATH, ffprobePath: config.FFPROBE_PATH })) },
        { provide: RESULT_STORE, useValue: storage },
        { provide: WORKER_SETTINGS, useValue: settings },
        { provide: DurationProbe, useValue: durationProbe },
        { provide: WarmNodeProcesses, useValue: warmDenoisers },
        { provide: MediaRpcLifecycle, useValue: new MediaRpcLifecycle(nc, durationProbe) },
        {
          provide: JetStreamConsumersLifecycle,
          // The durable work consumer is ensured before it is pulled from.
          useFactory: (connection: NatsConnection, processJob: ProcessJobUseCase, runPiece: RunPieceUseCase, failDeadLettered: FailDeadLetteredJobUseCase) =>
            new JetStreamConsumersLifecycle(
              new JetStreamConsumers({ connection, consumers: [workConsumer(config)], handlers: workHandlers(processJob, runPiece, failDeadLettered), deadLetterHandlers: workDeadLetterHandlers(failDeadLettered) }),
            ),
          inject: [NATS_CONNECTION, ProcessJobUseCase, RunPieceUseCase, FailDeadLetteredJobUseCase],
        },
      ],
    };
  }
}
