import 'reflect-metadata';
import { tracing } from './tracing';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { runService } from '@vj/observability';
import { billingEnv } from './billing.env';
import { bootBilling } from './boot';

runService({ name: 'billing', config: (env) => billingEnv.parse(env), tracing, defaultMetricsPort: DEFAULT_METRICS_PORTS.billing, start: bootBilling });
