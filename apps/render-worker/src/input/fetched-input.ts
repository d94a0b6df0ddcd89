// A job's input video on local disk, with the digest the moderation policy checks.
export interface FetchedInput {
  path: string;
  size: number;
  sha256: string;
  // An export's (decision 0093): what its source job kept for exports, beside the picture at path.
  exportSourcePath?: string;
}
