import { randomUUID } from 'node:crypto';
import { INT32_MAX } from '@vj/contracts';

export type CliCommand =
  | { kind: 'account-create'; name: string; credits?: number }
  | { kind: 'account-ensure-dev'; keyFile: string }
  | { kind: 'credits-grant'; accountId: string; amount: number; idempotencyKey: string };

export class UsageError extends Error {}

export const USAGE = `usage:
  cli account create --name <name> [--credits <amount>]
  cli account ensure-dev --key-file <path>
  cli credits grant --account <account_id> --amount <amount> [--idempotency-key <key>]`;

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
  if (group === 'credits' && action === 'grant') {
    const flags = parseFlags(rest, ['account', 'amount', 'idempotency-key']);
    return { kind: 'credits-grant', accountId: required(flags, 'account'), amount: credits(flags, 'amount'), idempotencyKey: idempotencyKey(flags) };
  }
  throw new UsageError(argv.length ? `unknown command "${argv.slice(0, 2).join(' ')}"` : 'no command given');
}
