// Declarative environment variables: each service declares its variables once, gets a typed config
// object validated at boot (all problems reported together), and the same declaration feeds the
// README table and the docker-compose check.

type Kind = 'string' | 'int' | 'url';

interface VarOptions<T> {
  doc: string;
  default?: T;
  optional?: boolean;
  min?: number;
  max?: number;
  // For url variables: the schemes allowed.
  protocols?: string[];
  // For string variables: the only values allowed.
  choices?: readonly string[];
  secret?: boolean;
}

export interface EnvVar<T> extends VarOptions<T> {
  kind: Kind;
  // Phantom field carrying the value type.
  readonly __type?: T;
}

function variable<T>(kind: Kind, options: VarOptions<T>): EnvVar<T> {
  return { kind, ...options };
}

export const env = {
  string: <O extends VarOptions<string>>(o: O) => variable<string>('string', o) as EnvVar<string> & O,
  url: <O extends VarOptions<string>>(o: O) => variable<string>('url', o) as EnvVar<string> & O,
  int: <O extends VarOptions<number>>(o: O) => variable<number>('int', o) as EnvVar<number> & O,
};

type ValueOf<V> = V extends EnvVar<infer T> ? (V extends { optional: true } ? T | undefined : T) : never;
export type EnvValues<S extends Record<string, EnvVar<unknown>>> = { readonly [K in keyof S]: ValueOf<S[K]> };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

// A secret's value never appears in a message: a malformed DATABASE_URL still carries its password.
function shown(spec: EnvVar<unknown>, raw: string): string {
  return spec.secret ? '(value hidden: secret)' : `"${raw}"`;
}

function parseValue(name: string, spec: EnvVar<unknown>, raw: string, problems: string[]): unknown {
  switch (spec.kind) {
    case 'string':
      if (spec.choices && !spec.choices.includes(raw)) problems.push(`${name} must be one of ${spec.choices.join(', ')}, got ${shown(spec, raw)}`);
      return raw;
    case 'int': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isInteger(value)) {
        problems.push(`${name} must be an integer, got ${shown(spec, raw)}`);
        return undefined;
      }
      if (spec.min !== undefined && value < spec.min) problems.push(`${name} must be >= ${spec.min}, got ${spec.secret ? shown(spec, raw) : value}`);
      if (spec.max !== undefined && value > spec.max) problems.push(`${name} must be <= ${spec.max}, got ${spec.secret ? shown(spec, raw) : value}`);
      return value;
    }
    case 'url':
      try {
        const url = new URL(raw);
        if (spec.protocols && !spec.protocols.includes(url.protocol.replace(/:$/, ''))) {
          problems.push(`${name} must use ${spec.protocols.join(' or ')}, got "${url.protocol}"`);
        }
      } catch {
        problems.push(`${name} must be a URL, got ${shown(spec, raw)}`);
      }
      return raw;
  }
}

export interface EnvDefinition<S extends Record<string, EnvVar<unknown>>> {
  variables: S;
  parse(source: NodeJS.ProcessEnv): EnvValues<S>;
  // Variables with neither a default nor optional: a deployment must set them.
  required(): string[];
}

export function defineEnv<S extends Record<string, EnvVar<unknown>>>(variables: S): EnvDefinition<S> {
  return {
    variables,
    parse(source) {
      const problems: string[] = [];
      const values: Record<string, unknown> = {};
      for (const [name, spec] of Object.entries(variables)) {
        const raw = source[name];
        if (raw === undefined || raw === '') {
          if (spec.default !== undefined) values[name] = spec.default;
          else if (!spec.optional) problems.push(`${name} is required: ${spec.doc}`);
          continue;
        }
        values[name] = parseValue(name, spec, raw, problems);
      }
      if (problems.length) throw new ConfigError(problems);
      return values as EnvValues<S>;
    },
    required() {
      return Object.entries(variables)
        .filter(([, spec]) => spec.default === undefined && !spec.optional)
        .map(([name]) => name);
    },
  };
}
