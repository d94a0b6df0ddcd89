import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DEFAULT_WEBHOOK_EVENTS, type WebhookDelivery, type WebhookDeliveryPage, type WebhookEndpointPage, type WebhookEndpointWithSecret } from '@vj/contracts';
import { CreateWebhookEndpointDto, LIST_LIMIT_DEFAULT, ListWebhookEndpointsQuery, PageQuery, RotateWebhookSecretDto } from '@vj/http-contracts';
import { AccountId } from '../auth/account-id.decorator';
import { ApiBody, ApiRequestErrors } from '../http/openapi-responses';
import { UuidPipe } from '../http/uuid.pipe';
import { WEBHOOKS_PORT, type WebhooksPort } from './webhooks-port';

// An account's webhook receivers (decision 0032): deliveries follow Standard Webhooks, signed with the
// endpoint's whsec_ secret, shown on create and on rotation only.
@ApiTags('webhooks')
@ApiBearerAuth()
@ApiRequestErrors(401, 503)
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(@Inject(WEBHOOKS_PORT) private readonly webhooks: WebhooksPort) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createWebhookEndpoint', summary: 'Register a webhook endpoint', description: 'answers the endpoint with its signing secret, shown this once' })
  @ApiBody(201, 'WebhookEndpointWithSecret', 'the endpoint and its secret')
  @ApiRequestErrors(400, 409, 422)
  create(@AccountId() accountId: string, @Body() body: CreateWebhookEndpointDto): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.call('create_endpoint', { version: 1, account_id: accountId, url: body.url, events: body.events ?? [...DEFAULT_WEBHOOK_EVENTS] });
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhookEndpoints', summary: "List the account's webhook endpoints",
    description: "oldest first; secrets are never listed. With job_id: the endpoint that job's webhook_url made, whose deliveries can then be listed and retried like any other's",
  })
  @ApiBody(200, 'WebhookEndpointList', 'the endpoints')
  @ApiRequestErrors(422)
  list(@AccountId() accountId: string, @Query() query: ListWebhookEndpointsQuery): Promise<WebhookEndpointPage> {
    return this.webhooks.call('list_endpoints', { version: 1, account_id: accountId, ...(query.job_id && { job_id: query.job_id.toLowerCase() }) });
  }

  @Delete(':endpoint_id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint', description: 'nothing more is sent to it, pending retries included' })
  @ApiResponse({ status: 204, description: 'deleted; nothing more is sent to it' })
  @ApiRequestErrors(404)
  async remove(@AccountId() accountId: string, @Param('endpoint_id', UuidPipe) endpointId: string): Promise<void> {
    await this.webhooks.call('delete_endpoint', { version: 1, account_id: accountId, endpoint_id: endpointId });
  }

  @Post(':endpoint_id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookEndpointSecret', summary: "Rotate an endpoint's secret",
    description: 'answers the new secret; the previous one signs too (a second signature) until grace_seconds have passed',
  })
  @ApiBody(200, 'WebhookEndpointWithSecret', 'the endpoint and its new secret')
  @ApiRequestErrors(400, 404, 422)
  rotate(@AccountId() accountId: string, @Param('endpoint_id', UuidPipe) endpointId: string, @Body() body: RotateWebhookSecretDto): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.call('rotate_endpoint_secret', { version: 1, account_id: accountId, endpoint_id: endpointId, ...(body.grace_seconds !== undefined && { grace_seconds: body.grace_seconds }) });
  }

  @Get(':endpoint_id/deliveries')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: "List an endpoint's deliveries", description: 'newest first, each with every attempt (time, status or error, duration, the start of the answer)' })
  @ApiBody(200, 'WebhookDeliveryPage', 'a page of deliveries')
  @ApiRequestErrors(404, 422)
  deliveries(@AccountId() accountId: string, @Param('endpoint_id', UuidPipe) endpointId: string, @Query() query: PageQuery): Promise<WebhookDeliveryPage> {
    return this.webhooks.call('list_deliveries', {
      version: 1,
      account_id: accountId,
      endpoint_id: endpointId,
      limit: query.limit ?? LIST_LIMIT_DEFAULT,
      ...(query.cursor && { cursor: query.cursor }),
    });
  }

  @Post(':endpoint_id/deliveries/:delivery_id/retry')
  @HttpCode(202)
  @ApiOperation({ operationId: 'retryWebhookDelivery', summary: 'Send a delivery again', description: 'due now, whatever happened before; the retry schedule starts over' })
  @ApiBody(202, 'WebhookDelivery', 'the delivery, pending')
  @ApiRequestErrors(404, 409)
  retry(
    @AccountId() accountId: string,
    @Param('endpoint_id', UuidPipe) endpointId: string,
    @Param('delivery_id', UuidPipe) deliveryId: string,
  ): Promise<WebhookDelivery> {
    return this.webhooks.call('retry_delivery', { version: 1, account_id: accountId, endpoint_id: endpointId, delivery_id: deliveryId });
  }
}
