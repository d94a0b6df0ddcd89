import type { ServiceName } from '@vj/contracts';

// The messaging side of /healthz: the NATS connection and the health ping of each service.
export interface ServiceHealthPort {
  isConnected(): boolean;
  ping(service: ServiceName): Promise<boolean>;
}

export const SERVICE_HEALTH_PORT = Symbol('ServiceHealthPort');
