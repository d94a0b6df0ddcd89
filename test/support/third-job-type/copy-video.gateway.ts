import { IsBoolean, IsDefined, IsOptional } from 'class-validator';
import { withDefaults } from '@vj/contracts';
import { IsVideoUrl, IsWebhookUrl } from '@vj/http-contracts';
import { resourceNames, type GatewayJobType, type JobCreateBody } from '../../../apps/gateway/src/jobs/types/gateway-job-type';
import { COPY_VIDEO_TYPE, type CopyVideoOptions } from './copy-video.definition';

export class CreateCopyVideoDto {
  @IsDefined()
  @IsVideoUrl()
  video_url!: string;

  @IsOptional()
  @IsBoolean()
  faststart?: boolean;

  @IsOptional()
  @IsWebhookUrl()
  webhook_url?: string;
}

// The gateway's part of the test-only type: its body and its options with their defaults.
export const COPY_VIDEO_GATEWAY = {
  names: resourceNames(COPY_VIDEO_TYPE as never),
  body: CreateCopyVideoDto,
  options: (body: CreateCopyVideoDto): CopyVideoOptions => withDefaults(body, COPY_VIDEO_TYPE.defaults),
} as unknown as GatewayJobType<never, JobCreateBody>;
