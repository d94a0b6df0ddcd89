import { natsHost, natsServerOptions } from './nats-url';

describe('natsServerOptions', () => {
  it('passes a URL without credentials through', () => {
    expect(natsServerOptions('nats://127.0.0.1:4222')).toEqual({ servers: 'nats://127.0.0.1:4222' });
  });

  it('takes the user and the (escaped) password out of the URL, as nats.js ignores them there', () => {
    expect(natsServerOptions('nats://gateway:s3cr%40t@nats:4222')).toEqual({ servers: 'nats://nats:4222', user: 'gateway', pass: 's3cr@t' });
  });

  it('names only the host in messages', () => {
    expect(natsHost('nats://gateway:secret@nats:4222')).toBe('nats:4222');
    expect(natsHost('not a url')).toBe('NATS_URL');
  });
});
