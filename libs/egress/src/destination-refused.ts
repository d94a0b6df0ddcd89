// Which rule of the SSRF guard refused a destination.
export type DestinationRule = 'scheme' | 'blocked_host_name' | 'blocked_address' | 'dns';

// A URL our services must not connect to (vet-destination.ts); the caller turns it into its own failure
// (a job's transload_failed, a webhook attempt's error).
export class DestinationRefused extends Error {
  constructor(
    readonly rule: DestinationRule,
    message: string,
  ) {
    super(message);
    this.name = 'DestinationRefused';
  }
}
