import { randomUUID } from 'node:crypto';
import { INT32_MAX } from '@vj/contracts';
import type { AccountLimitOverrides } from '../identity';

export type CliCommand =
  | { kind: 'account-create'; name: string; credits?: number }
  | { kind: 'account-ensure-dev'; keyFile: string }
  | { kind: 'account-show'; accountId: string }
  | { kind: 'account-suspend'; accountId: string }
  | { kind: 'account-reinstate'; accountId: string }
  | { kind: 'account-limits'; accountId: string; changes: Partial<AccountLimitOverrides> }
  | { kind: 'keys-list'; accountId: string }
  | { kind: 'keys-create'; accountId: string; name: string | null }
  | { kind: 'keys-revoke'; keyId: string }
  | { kind: 'credits-grant'; accountId: string; amount: number; idempotencyKey: string }
  | { kind: 'dead-letters-list'; consumer?: string; limit: number }
  | { kind: 'dead-letters-replay'; seq: number };

export class UsageError extends Error {}

export const USAGE = `usage:
  cli account create --name <name> [--credits <amount>]
  cli account ensure-dev --key-file <path>
  cli account show --account <account_id>
  cli account limits --account <account_id> [--reads-per-second <n>] [--read-burst <n>] [--writes-per-second <n>]
                     [--write-burst <n>] [--max-processing-jobs <n>]      (a value of "default" clears the account's own)
  cli account suspend --account <account_id>       (keys answer 401, PROCESSING jobs are cancelled)
  cli account reinstate --account <account_id>
  cli account keys list --account <account_id>
  cli account keys create --account <account_id> [--name <label>]
  cli account keys revoke --key <key_id>
  cli credits grant --account <account_id> --amount <amount> [--idempotency-key <key>]
  cli dead-letters list [--consumer <name>] [--limit <n>]   (newest first, 20 by default)
  cli dead-letters replay --seq <n>                          (publishes it again where it came from)`;

// Limit flags and the account column each one sets: rates may be fractional, sizes are whole.
const LIMIT_FLAGS = {
  'reads-per-second': { column: 'reads_per_second', whole: false },
  'read-burst': { column: 'read_burst', whole: true },
  'writes-per-second': { column: 'writes_per_second', whole: false },
  'write-burst': { column: 'write_burst', whole: true },
  'max-processing-jobs': { column: 'max_processing_jobs', whole: true },
} as const satisfies Record<string, { column: keyof AccountLimitOverrides; whole: boolean }>;
const LIMIT_MAX = 1_000_000;

// Visible ASCII, and no longer than billing keeps (it prefixes the account).
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

// --flag value and --flag=value; every flag must be known to the command.
function parseFlags(args: string[], known: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    if (flags.has(name)) throw new UsageError(`--${name} given twice`);
    flags.set(name, value);
  }
  return flags;
}

function required(flags: Map<string, string>, name: string): string {
  const value = flags.get(name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

// Credits are whole numbers, and the API shows balances as 32-bit integers.
function credits(flags: Map<string, string>, name: string): number {
  const value = required(flags, name);
  const amount = Number(value);
  if (!/^[1-9]\d*$/.test(value) || amount > INT32_MAX) throw new UsageError(`--${name} must be a whole number of credits from 1 to ${INT32_MAX}`);
  return amount;
}

function limitChanges(flags: Map<string, string>): Partial<AccountLimitOverrides> {
  const changes: Partial<AccountLimitOverrides> = {};
  for (const [flag, { column, whole }] of Object.entries(LIMIT_FLAGS)) {
    const value = flags.get(flag);
    if (value === undefined) continue;
    if (value === 'default') {
      changes[column] = null;
      continue;
    }
    const number = Number(value);
    const valid = whole ? /^[1-9]\d*$/.test(value) : /^\d+(\.\d+)?$/.test(value) && number > 0;
    if (!valid || number > LIMIT_MAX) {
      throw new UsageError(`--${flag} must be ${whole ? 'a whole number' : 'a number'} above 0 and at most ${LIMIT_MAX}, or "default"`);
    }
    changes[column] = number;
  }
  return changes;
}

function wholeNumber(flags: Map<string, string>, name: string, fallback?: number): number {
  const value = flags.get(name);
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw new UsageError(`--${name} is required`);
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`--${name} must be a whole number from 1`);
  return Number(value);
}

function idempotencyKey(flags: Map<string, string>): string {
  const key = flags.get('idempotency-key');
  if (key === undefined) return randomUUID();
  if (!IDEMPOTENCY_KEY.test(key)) throw new UsageError('--idempotency-key must be 1 to 200 visible ASCII characters');
  return key;
}

export function parseCliArgs(argv: string[]): CliCommand {
  const [group, action, ...rest] = argv;
  if (group === 'account' && action === 'create') {
    const flags = parseFlags(rest, ['name', 'credits']);
    return { kind: 'account-create', name: required(flags, 'name'), ...(flags.has('credits') && { credits: credits(flags, 'credits') }) };
  }
  if (group === 'account' && action === 'ensure-dev') {
    return { kind: 'account-ensure-dev', keyFile: required(parseFlags(rest, ['key-file']), 'key-file') };
  }
  if (group === 'account' && (action === 'show' || action === 'suspend' || action === 'reinstate')) {
    return { kind: `account-${action}`, accountId: required(parseFlags(rest, ['account']), 'account') };
  }
  if (group === 'account' && action === 'limits') {
    const flags = parseFlags(rest, ['account', ...Object.keys(LIMIT_FLAGS)]);
    return { kind: 'account-limits', accountId: required(flags, 'account'), changes: limitChanges(flags) };
  }
  if (group === 'account' && action === 'keys') {
    const [keysAction, ...keysRest] = rest;
    if (keysAction === 'list') return { kind: 'keys-list', accountId: required(parseFlags(keysRest, ['account']), 'account') };
    if (keysAction === 'create') {
      const flags = parseFlags(keysRest, ['account', 'name']);
      return { kind: 'keys-create', accountId: required(flags, 'account'), name: flags.get('name') ?? null };
    }
    if (keysAction === 'revoke') return { kind: 'keys-revoke', keyId: required(parseFlags(keysRest, ['key']), 'key') };
    throw new UsageError(`unknown command "account keys${keysAction ? ` ${keysAction}` : ''}"`);
  }
  if (group === 'dead-letters' && action === 'list') {
    const flags = parseFlags(rest, ['consumer', 'limit']);
    return { kind: 'dead-letters-list', ...(flags.has('consumer') && { consumer: flags.get('consumer') }), limit: wholeNumber(flags, 'limit', 20) };
  }
  if (group === 'dead-letters' && action === 'replay') {
    return { kind: 'dead-letters-replay', seq: wholeNumber(parseFlags(rest, ['seq']), 'seq') };
  }
  if (group === 'credits' && action === 'grant') {
    const flags = parseFlags(rest, ['account', 'amount', 'idempotency-key']);
    return { kind: 'credits-grant', accountId: required(flags, 'account'), amount: credits(flags, 'amount'), idempotencyKey: idempotencyKey(flags) };
  }
  throw new UsageError(argv.length ? `unknown command "${argv.slice(0, 2).join(' ')}"` : 'no command given');
}
