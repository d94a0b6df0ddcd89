import 'reflect-metadata';
import { tracing } from './tracing';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { runService } from '@vj/observability';
import { bootWebhookDelivery } from './boot';
import { webhooksEnv } from './webhooks.env';

runService({ name: 'webhook-delivery', config: (env) => webhooksEnv.parse(env), tracing, defaultMetricsPort: DEFAULT_METRICS_PORTS['webhook-delivery'], start: bootWebhookDelivery });
