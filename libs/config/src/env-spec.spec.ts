import { ConfigError, defineEnv, env } from './env-spec';

const definition = defineEnv({
  PORT: env.int({ doc: 'port', default: 3000, min: 1, max: 65535 }),
  NATS_URL: env.url({ doc: 'nats', protocols: ['nats'] }),
  LEVEL: env.string({ doc: 'level', default: 'log', choices: ['log', 'debug'] }),
  EXTRA: env.string({ doc: 'extra', optional: true }),
});

function problems(source: NodeJS.ProcessEnv): string[] {
  try {
    definition.parse(source);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
}

describe('defineEnv', () => {
  it('applies defaults and leaves optional variables unset', () => {
    expect(definition.parse({ NATS_URL: 'nats://127.0.0.1:4222' })).toEqual({ PORT: 3000, NATS_URL: 'nats://127.0.0.1:4222', LEVEL: 'log' });
  });

  it('reports every problem at once', () => {
    expect(problems({ PORT: '3.5', LEVEL: 'info' })).toEqual([
      'PORT must be an integer, got "3.5"',
      'NATS_URL is required: nats',
      'LEVEL must be one of log, debug, got "info"',
    ]);
  });

  it('checks ranges and URL schemes', () => {
    expect(problems({ PORT: '70000', NATS_URL: 'http://x' })).toEqual(['PORT must be <= 65535, got 70000', 'NATS_URL must use nats, got "http:"']);
  });

  it('never prints the value of a secret, even a malformed one', () => {
    const secrets = defineEnv({
      DATABASE_URL: env.url({ doc: 'db', protocols: ['postgres'], secret: true }),
      TOKEN_TTL: env.int({ doc: 'ttl', min: 1, secret: true }),
    });
    let message = '';
    try {
      secrets.parse({ DATABASE_URL: 'postgres//admin:hunter2@db:5432', TOKEN_TTL: '-7' });
    } catch (error) {
      message = (error as ConfigError).message;
    }
    expect(message).toContain('DATABASE_URL must be a URL, got (value hidden: secret)');
    expect(message).toContain('TOKEN_TTL must be >= 1, got (value hidden: secret)');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('-7');
  });

  it('names the variables a deployment must set', () => {
    expect(definition.required()).toEqual(['NATS_URL']);
  });
});
