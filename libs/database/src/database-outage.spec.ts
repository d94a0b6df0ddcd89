import { isDatabaseOutage } from './database-outage';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseOutage', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a Unix socket with no server behind it', Object.assign(withCode('ENOENT', 'connect ENOENT /run/postgresql/.s.PGSQL.5432'), { syscall: 'connect' })],
    ['a connection cut under a query', new Error('Connection terminated unexpectedly')],
    ['the server shutting down', withCode('57P01', 'terminating connection due to administrator command')],
    ['the server starting up', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300', 'sorry, too many clients already')],
    ['a connection exception', withCode('08006')],
    ['a wait for a pooled connection that ran out', new Error('timeout exceeded when trying to connect')],
    ['one wrapped by TypeORM', Object.assign(new Error('query failed'), { driverError: withCode('57P01') })],
  ])('is true for %s', (_what, error) => {
    expect(isDatabaseOutage(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['our own refusal raised in SQL', withCode('VJ002', 'processing cap reached')],
    ['a syntax error', withCode('42601')],
    ['a plain error', new Error('boom')],
    ['a file that is not there', Object.assign(withCode('ENOENT', "no such file or directory, open '/tmp/x'"), { syscall: 'open' })],
    ['no error object', 'boom'],
  ])('is false for %s', (_what, error) => {
    expect(isDatabaseOutage(error)).toBe(false);
  });
});
