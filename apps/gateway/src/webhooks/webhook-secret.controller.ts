import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WebhookDefaultSecret } from '@vj/contracts';
import { RotateWebhookSecretDto } from '@vj/http-contracts';
import { AccountId } from '../auth/account-id.decorator';
import { ApiBody, ApiRequestErrors } from '../http/openapi-responses';
import { WEBHOOKS_PORT, type WebhooksPort } from './webhooks-port';

// The account's default secret, which signs the deliveries of a create's webhook_url. Readable at any
// time (like Replicate's default secret): a create's webhook_url needs no endpoint set up first.
@ApiTags('webhooks')
@ApiBearerAuth()
@ApiRequestErrors(401, 503)
@Controller('v1/webhook-secret')
export class WebhookSecretController {
  constructor(@Inject(WEBHOOKS_PORT) private readonly webhooks: WebhooksPort) {}

  @Get()
  @ApiOperation({ operationId: 'getWebhookSecret', summary: "The account's default webhook secret", description: 'made on first use; signs the deliveries of a create\'s webhook_url' })
  @ApiBody(200, 'WebhookDefaultSecret', 'the secret')
  get(@AccountId() accountId: string): Promise<WebhookDefaultSecret> {
    return this.webhooks.call('get_default_secret', { version: 1, account_id: accountId });
  }

  @Post('rotate')
  @HttpCode(200)
  @ApiOperation({ operationId: 'rotateWebhookSecret', summary: "Rotate the account's default webhook secret", description: 'the previous one signs too until grace_seconds have passed' })
  @ApiBody(200, 'WebhookDefaultSecret', 'the new secret')
  @ApiRequestErrors(400, 422)
  rotate(@AccountId() accountId: string, @Body() body: RotateWebhookSecretDto): Promise<WebhookDefaultSecret> {
    return this.webhooks.call('rotate_default_secret', { version: 1, account_id: accountId, ...(body.grace_seconds !== undefined && { grace_seconds: body.grace_seconds }) });
  }
}
