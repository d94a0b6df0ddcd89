// Who is calling: the account, the key it used (rate limits are per key) and the account's own limits.
export interface Principal {
  accountId: string;
  keyId: string;
  limits: AccountLimitOverrides;
}

// null: the deployment's default applies.
export interface AccountLimitOverrides {
  reads_per_second: number | null;
  read_burst: number | null;
  writes_per_second: number | null;
  write_burst: number | null;
  max_processing_jobs: number | null;
}

export const LIMIT_NAMES = ['reads_per_second', 'read_burst', 'writes_per_second', 'write_burst', 'max_processing_jobs'] as const satisfies readonly (keyof AccountLimitOverrides)[];
