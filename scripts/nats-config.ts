import { join } from 'node:path';
import { NATS_USERS, natsPasswordVariable, natsPermissions, type NatsPermissions, type NatsUser } from './nats/service-permissions';

// deploy/nats/nats.conf is rendered from the permission catalogue (scripts/nats/service-permissions.ts):
// `node scripts/run-ts.cjs scripts/render-nats-config.ts` writes it, a unit test fails when it is stale.
export const NATS_CONFIG_PATH = join(__dirname, '..', 'deploy', 'nats', 'nats.conf');
export const RENDER_COMMAND = 'node scripts/run-ts.cjs scripts/render-nats-config.ts';

// What JetStream may store on each NATS server: 9 GiB of the 10 GiB volume (deploy/k8s/base/nats/statefulset.yaml),
// the rest for the file system and the cluster's own logs. JetStreamStorageFilling fires at 80 % of it.
export const JETSTREAM_MAX_FILE_STORE_BYTES = 9 * 1024 ** 3;

const quoted = (value: string) => JSON.stringify(value);

function list(name: string, values: string[], indent: string): string[] {
  return [`${indent}${name}: {`, `${indent}  allow: [`, ...values.map((value) => `${indent}    ${quoted(value)}`), `${indent}  ]`, `${indent}}`];
}

function userBlock(user: NatsUser, permissions: NatsPermissions): string[] {
  const indent = '      ';
  return [
    '    {',
    `      user: ${quoted(user)}`,
    // Unquoted: nats-server substitutes the environment variable of that name.
    `      password: $${natsPasswordVariable(user)}`,
    '      permissions: {',
    ...list('publish', permissions.publish, `${indent}  `),
    ...list('subscribe', permissions.subscribe, `${indent}  `),
    ...(permissions.allowResponses ? [`${indent}  allow_responses: true`] : []),
    '      }',
    '    }',
  ];
}

export function renderNatsConfig(permissions: Record<NatsUser, NatsPermissions> = natsPermissions()): string {
  return [
    `# Generated from scripts/nats/service-permissions.ts: do not edit, run`,
    `#   ${RENDER_COMMAND}`,
    '#',
    '# One user per service and one for the operator CLI; a connection without a user is refused.',
    '# Each password comes from the environment variable named after $ (nats-server reads it at start).',
    '# nats-server parses that value like a configuration value, so a password must start with a letter:',
    '# one starting with digits can read as a number ("1e5...") and stop the server (.env.example).',
    '# The JetStream store directory is given on the command line (-sd), where the file store lives.',
    '# Its size is set here (decision 0063): left out, nats-server takes 75 % of the disk space free when it',
    '# starts, which shrinks with the streams it already holds and is below the alert on a 10 GiB volume.',
    '',
    'jetstream {',
    `  max_file_store: ${JETSTREAM_MAX_FILE_STORE_BYTES}`,
    '}',
    '',
    'authorization {',
    '  users: [',
    ...NATS_USERS.flatMap((user) => userBlock(user, permissions[user])),
    '  ]',
    '}',
    '',
  ].join('\n');
}

// nats-server's environment for a rendered configuration: each user's password under its variable.
export function natsPasswordEnv(passwords: Record<NatsUser, string>): Record<string, string> {
  return Object.fromEntries(NATS_USERS.map((user) => [natsPasswordVariable(user), passwords[user]]));
}
