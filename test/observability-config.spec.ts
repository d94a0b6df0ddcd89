import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { SERVICE_ENVS } from '../scripts/env-catalogue';
import { JETSTREAM_MAX_FILE_STORE_BYTES, renderNatsConfig } from '../scripts/nats-config';

const dir = join(__dirname, '..', 'deploy', 'observability');
// The services as docker-compose.yml names them; Prometheus' job label is the same name.
const SERVICES = Object.keys(SERVICE_ENVS);

// Every metric the services expose (libs/observability, the apps' metrics folders, prom-client's
// process metrics) and Prometheus' own `up`.
const EXPOSED = new Set([
  'up',
  'service_ready',
  'service_dependency_up',
  'metrics_collector_errors_total',
  'http_request_duration_seconds_bucket',
  'http_request_duration_seconds_count',
  'jobs_created_total',
  'jobs_completed_total',
  'jobs_failed_total',
  'jobs_cancelled_total',
  'worker_processing_seconds_bucket',
  'worker_processing_seconds_count',
  'worker_processing_fps_bucket',
  'worker_processes_started_total',
  'jetstream_stream_messages',
  'jetstream_stream_bytes',
  'jetstream_consumer_pending_messages',
  'jetstream_consumer_ack_pending_messages',
  'jetstream_handler_duration_seconds_bucket',
  'jetstream_handler_duration_seconds_count',
  'rpc_server_duration_seconds_bucket',
  'rpc_server_duration_seconds_count',
  'dead_letters',
  'outbox_oldest_unpublished_age_seconds',
  'outbox_parked_messages',
  'billing_balance_credits',
  'billing_held_credits',
  'billing_accounts',
  'webhook_attempts_total',
  'webhook_attempt_duration_seconds_bucket',
  'webhook_delivery_latency_seconds_bucket',
  'webhook_deliveries_due',
  'webhook_deliveries_retrying',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_p99_seconds',
]);

const PROMQL_WORDS = new Set(['sum', 'max', 'min', 'by', 'rate', 'increase', 'deriv', 'histogram_quantile', 'and', 'or', 'le', '__rate_interval']);

// The metric names an expression reads: what is left once label matchers, groupings, strings,
// durations and functions are taken out.
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\bby \([^)]*\)/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  return [...new Set(bare.match(/[a-z_][a-z0-9_]*/gi) ?? [])].filter((word) => !PROMQL_WORDS.has(word));
}

interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string };
}

describe('deploy/observability', () => {
  const rules = (parse(readFileSync(join(dir, 'alerts.yaml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
  const dashboard = JSON.parse(readFileSync(join(dir, 'grafana-dashboard.json'), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };

  it('alerts on what the issue names: queue growth, consumer lag, outbox lag, dead letters, error rates and readiness', () => {
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining(['WorkQueueGrowing', 'ConsumerLagging', 'OutboxLagging', 'DeadLetters', 'HttpErrorRate', 'ServiceNotReady', 'ServiceDown']),
    );
    for (const rule of rules) {
      expect({ alert: rule.alert, severity: rule.labels?.severity, summary: Boolean(rule.annotations?.summary), for: rule.for }).toEqual({
        alert: rule.alert,
        severity: expect.stringMatching(/^(warning|critical)$/),
        summary: true,
        for: expect.stringMatching(/^\d+m$/),
      });
    }
  });

  it('reads only metrics the services expose, in the alerts and in the dashboard', () => {
    const exprs = [...rules.map((rule) => rule.expr), ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr))];
    const unknown = exprs.flatMap((expr) => metricsOf(expr).filter((name) => !EXPOSED.has(name)).map((name) => `${name} in ${expr}`));
    expect(unknown).toEqual([]);
    expect(exprs.length).toBeGreaterThan(20);
  });

  it('scrapes every service on its default METRICS_PORT, and every job filter names every service', () => {
    const prometheus = parse(readFileSync(join(dir, 'prometheus.yaml'), 'utf8')) as { scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[] };
    const scraped = Object.fromEntries(prometheus.scrape_configs.map((config) => [config.job_name, config.static_configs.flatMap((group) => group.targets)]));
    const ports = DEFAULT_METRICS_PORTS as Record<string, number>;
    expect(scraped).toEqual(Object.fromEntries(SERVICES.map((service) => [service, [`127.0.0.1:${ports[service]}`]])));
    // A job=~"a|b" filter listing the services by hand misses one added later: each must list them all.
    const exprs = [...rules.map((rule) => rule.expr), ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr))];
    const filters = exprs.flatMap((expr) => [...expr.matchAll(/job=~"([^"]*)"/g)].map((match) => match[1].split('|').sort()));
    expect(filters.length).toBeGreaterThan(0);
    for (const filter of filters) expect(filter).toEqual([...SERVICES].sort());
  });

  it("warns at 80 % of what JetStream may store, which nats.conf sets and the NATS volume holds with room to spare", () => {
    const rule = rules.find((candidate) => candidate.alert === 'JetStreamStorageFilling');
    const threshold = Number(/> (\d+)$/.exec(rule?.expr.trim() ?? '')?.[1]);
    expect(threshold).toBe(Math.floor(0.8 * JETSTREAM_MAX_FILE_STORE_BYTES));
    expect(renderNatsConfig()).toContain(`max_file_store: ${JETSTREAM_MAX_FILE_STORE_BYTES}\n`);
    const statefulSet = parse(readFileSync(join(__dirname, '..', 'deploy', 'k8s', 'base', 'nats', 'statefulset.yaml'), 'utf8')) as {
      spec: { volumeClaimTemplates: { spec: { resources: { requests: { storage: string } } } }[] };
    };
    const volume = /^(\d+)Gi$/.exec(statefulSet.spec.volumeClaimTemplates[0].spec.resources.requests.storage);
    expect(Number(volume?.[1]) * 1024 ** 3).toBeGreaterThanOrEqual(JETSTREAM_MAX_FILE_STORE_BYTES * 1.1);
  });
});
