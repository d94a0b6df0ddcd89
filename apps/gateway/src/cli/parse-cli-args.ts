export type CliCommand = { kind: 'account-create'; name: string } | { kind: 'account-ensure-dev'; keyFile: string };

export class UsageError extends Error {}

export const USAGE = `usage:
  cli account create --name <name>
  cli account ensure-dev --key-file <path>`;

const BILLING_LATER = 'arrives with billing and is not available yet';

// --flag value and --flag=value; every flag must be known to the command.
function parseFlags(args: string[], known: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (name === 'credits') throw new UsageError(`--credits ${BILLING_LATER}`);
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

export function parseCliArgs(argv: string[]): CliCommand {
  const [group, action, ...rest] = argv;
  if (group === 'credits') throw new UsageError(`credits ${action ?? ''} ${BILLING_LATER}`.replace(/\s+/g, ' '));
  if (group === 'account' && action === 'create') return { kind: 'account-create', name: required(parseFlags(rest, ['name']), 'name') };
  if (group === 'account' && action === 'ensure-dev') {
    return { kind: 'account-ensure-dev', keyFile: required(parseFlags(rest, ['key-file']), 'key-file') };
  }
  throw new UsageError(argv.length ? `unknown command "${argv.slice(0, 2).join(' ')}"` : 'no command given');
}
