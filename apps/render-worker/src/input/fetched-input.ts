// A job's input video on local disk, with the digest the moderation policy checks.
export interface FetchedInput {
  path: string;
  size: number;
  sha256: string;
}
