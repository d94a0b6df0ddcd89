import type { GatewayConfig } from '../gateway.env';

// The most bytes an upload may hold: one PUT carries up to UPLOAD_MAX_BYTES, a multipart upload up to
// UPLOAD_MULTIPART_MAX_BYTES (decision 0099). Checked at declaration and again at create.
export function uploadSizeLimit(config: Pick<GatewayConfig, 'UPLOAD_MAX_BYTES' | 'UPLOAD_MULTIPART_MAX_BYTES'>, multipart: boolean): number {
  return multipart ? config.UPLOAD_MULTIPART_MAX_BYTES : config.UPLOAD_MAX_BYTES;
}
