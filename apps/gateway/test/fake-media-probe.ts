import type { ProbeInputReplyV1, ProbeInputRequestV1 } from '@vj/contracts';
import { RpcError } from '@vj/messaging';
import type { MediaProbePort } from '../src/jobs/media-probe-port';

// The render workers' probe: a set duration, or the error a timed-out NATS request gives.
export class FakeMediaProbe implements MediaProbePort {
  readonly probes: ProbeInputRequestV1[] = [];
  durationSeconds: number | null = 12.4;
  timesOut = false;
  // Resolved before the probe answers: a test can act while a create is being quoted.
  gate: Promise<void> | null = null;

  async probe(request: ProbeInputRequestV1): Promise<ProbeInputReplyV1> {
    this.probes.push(request);
    await this.gate;
    if (this.timesOut) throw new RpcError('unavailable', 'media.probe: TIMEOUT');
    return { duration_seconds: this.durationSeconds };
  }
}
