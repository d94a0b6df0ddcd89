import type { FetchedInput } from '../input/fetched-input';

export type ModerationVerdict = { allowed: true } | { allowed: false; reason: string };

// docs/spec/api-v1.md: the default policy is a SHA-256 deny-list; a deployment can plug in a
// classifier here.
export interface ModerationPolicy {
  check(input: FetchedInput): Promise<ModerationVerdict>;
}

export const MODERATION_POLICY = Symbol('ModerationPolicy');
