import { randomBytes } from 'node:crypto';

// The deployment's environment (.env.example -> .env -> docker-compose.yml), for scripts/generate-env.ts
// and test/deployment-config.spec.ts.

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

// The variables .env.example names (uncommented NAME=value lines), with their values.
export function envFileVariables(text: string): Map<string, string> {
  const variables = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = ASSIGNMENT.exec(line.trim());
    if (match) variables.set(match[1], match[2]);
  }
  return variables;
}

// A variable whose value must never be written in the repository.
export function looksSecret(name: string): boolean {
  return /PASSWORD|SECRET|KEY|TOKEN|ROOT_USER/i.test(name);
}

// A fresh random value: a letter first, because nats-server reads its password variables as config
// tokens (a value starting with digits can parse as a number), then hex, which is safe in URLs.
// Access keys and user names stay within MinIO's 20 characters, secrets are 128 bits.
export function generateValue(name: string): string {
  return /ACCESS_KEY$|ROOT_USER$/.test(name) ? `k${randomBytes(8).toString('hex')}` : `s${randomBytes(16).toString('hex')}`;
}

// .env.example with every empty variable given a generated value (comments and set values kept).
export function fillEnvFile(text: string, generate: (name: string) => string = generateValue): string {
  return text
    .split('\n')
    .map((line) => {
      const match = ASSIGNMENT.exec(line.trim());
      return match && match[2] === '' ? `${match[1]}=${generate(match[1])}` : line;
    })
    .join('\n');
}

export interface ComposeReference {
  name: string;
  // '' for $NAME / ${NAME}; ':-', '-', ':?', '?', ':+', '+' for the forms with an argument.
  operator: string;
  argument: string;
}

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function composeReferences(text: string): ComposeReference[] {
  const references: ComposeReference[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    if (match[0] === '$$') continue;
    references.push({ name: match[1] ?? match[4], operator: match[2] ?? '', argument: match[3] ?? '' });
  }
  return references;
}

// Docker Compose's interpolation of one value (compose-spec "Interpolation"): the value, and the error
// of every required variable that is missing (`${NAME:?message}` when unset or empty, `${NAME?message}`
// when unset).
export function interpolate(text: string, env: Record<string, string | undefined>): { value: string; errors: string[] } {
  const errors: string[] = [];
  const value = text.replace(REFERENCE, (whole, braced?: string, operator = '', argument = '', bare?: string) => {
    if (whole === '$$') return '$';
    const name = (braced ?? bare) as string;
    const current = env[name];
    const unset = current === undefined;
    const empty = unset || current === '';
    switch (operator) {
      case ':-':
        return empty ? argument : (current as string);
      case '-':
        return unset ? argument : (current as string);
      case ':?':
      case '?':
        if (operator === ':?' ? empty : unset) {
          errors.push(`required variable ${name} is missing a value: ${argument}`);
          return '';
        }
        return current as string;
      case ':+':
        return empty ? '' : argument;
      case '+':
        return unset ? '' : argument;
      default:
        return current ?? '';
    }
  });
  return { value, errors };
}
