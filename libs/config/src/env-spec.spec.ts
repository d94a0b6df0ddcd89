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

  it('names the variables a deployment must set', () => {
    expect(definition.required()).toEqual(['NATS_URL']);
  });
});
