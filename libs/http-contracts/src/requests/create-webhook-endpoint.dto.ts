import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, WEBHOOK_GRACE_SECONDS_DEFAULT, WEBHOOK_GRACE_SECONDS_MAX, WEBHOOK_URL_MAX_LENGTH, type WebhookEventType } from '@vj/contracts';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsDefined, IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { IsWebhookUrl } from './webhook-url.validator';


@ApiSchema({ name: 'CreateWebhookEndpointRequest' })
export class CreateWebhookEndpointDto {
  @ApiProperty({ description: 'http(s) URL the deliveries are POSTed to; private addresses are refused at delivery', maxLength: WEBHOOK_URL_MAX_LENGTH })
  @IsDefined()
  @IsWebhookUrl()
  url!: string;

  @ApiPropertyOptional({
    description: 'the event types delivered; job.progress (at most one a second per job) is opt-in',
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    default: DEFAULT_WEBHOOK_EVENTS,
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events?: WebhookEventType[];
}

@ApiSchema({ name: 'RotateWebhookSecretRequest' })
export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    description: 'seconds the previous secret keeps signing beside the new one (0: it stops at once)',
    minimum: 0,
    maximum: WEBHOOK_GRACE_SECONDS_MAX,
    default: WEBHOOK_GRACE_SECONDS_DEFAULT,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(WEBHOOK_GRACE_SECONDS_MAX)
  grace_seconds?: number;
}

export class ListWebhookEndpointsQuery {
  @ApiPropertyOptional({ description: "the job whose create gave a webhook_url: lists that job's own endpoint instead of the account's", format: 'uuid' })
  @IsOptional()
  @IsUUID()
  job_id?: string;
}
