import type { RpcErrorCode } from '@vj/contracts';

// An RPC failure whose code survives the wire; 'unavailable' is the client's own: nobody answered in time.
export class RpcError extends Error {
  constructor(
    readonly code: RpcErrorCode | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}
