import { histogram, LATENCY_BUCKETS } from './metrics';

// From a few milliseconds (a report) to an hour (a long render).
const HANDLER_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 1800, 3600];

const jetStreamHandlers = () =>
  histogram({
    name: 'jetstream_handler_duration_seconds',
    help: 'time a JetStream message handler ran, by consumer, subject and outcome (ok, or error: the message is retried or dead-lettered)',
    labelNames: ['consumer', 'subject', 'outcome'],
    buckets: HANDLER_BUCKETS,
  });

const rpcServer = () =>
  histogram({
    name: 'rpc_server_duration_seconds',
    help: 'time an RPC request took to answer, by service, method and outcome (ok or the error code)',
    labelNames: ['service', 'method', 'outcome'],
    buckets: LATENCY_BUCKETS,
  });

export function observeJetStreamHandler(consumer: string, subject: string, outcome: 'ok' | 'error', seconds: number): void {
  jetStreamHandlers().observe({ consumer, subject, outcome }, seconds);
}

export function observeRpcServer(service: string, method: string, outcome: string, seconds: number): void {
  rpcServer().observe({ service, method, outcome }, seconds);
}
