import type { ProbeInputReplyV1, ProbeInputRequestV1 } from '@vj/contracts';

// The render workers' duration probe (MediaRpc in contracts); messaging/rpc-media-probe.adapter.ts binds
// it to NATS with the ESTIMATE_PROBE_TIMEOUT_MS limit. A failure to answer is a time out: QuoteJobService
// tries once more.
export interface MediaProbePort {
  probe(request: ProbeInputRequestV1): Promise<ProbeInputReplyV1>;
}

export const MEDIA_PROBE_PORT = Symbol('MediaProbePort');
