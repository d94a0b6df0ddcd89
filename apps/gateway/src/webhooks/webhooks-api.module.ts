import { Module } from '@nestjs/common';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookSecretController } from './webhook-secret.controller';

// Webhook endpoints and the signing secret, kept by the webhook-delivery service.
@Module({ controllers: [WebhookEndpointsController, WebhookSecretController] })
export class WebhooksApiModule {}
