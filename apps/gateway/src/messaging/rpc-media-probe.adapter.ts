import type { MediaRpcClient } from '@vj/messaging';
import type { ProbeInputReplyV1, ProbeInputRequestV1 } from '@vj/contracts';
import type { MediaProbePort } from '../jobs';

// Binds the MediaProbePort to the render workers' NATS RPC with its own, tight time limit: a quote must
// not wait on a slow transload (QuoteJobService tries once more, then falls back to the maximum duration).
export class RpcMediaProbeAdapter implements MediaProbePort {
  constructor(
    private readonly client: MediaRpcClient,
    private readonly timeoutMs: number,
  ) {}

  probe(request: ProbeInputRequestV1): Promise<ProbeInputReplyV1> {
    return this.client.call('probe', request, this.timeoutMs);
  }
}
