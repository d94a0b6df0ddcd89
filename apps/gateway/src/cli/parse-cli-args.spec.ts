import { parseCliArgs, UsageError } from './parse-cli-args';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('parseCliArgs', () => {
  it('parses account create --name in both flag forms', () => {
    expect(parseCliArgs(['account', 'create', '--name', 'acme'])).toEqual({ kind: 'account-create', name: 'acme' });
    expect(parseCliArgs(['account', 'create', '--name=acme inc'])).toEqual({ kind: 'account-create', name: 'acme inc' });
  });

  it('parses account create --credits as a number of credits', () => {
    expect(parseCliArgs(['account', 'create', '--name', 'acme', '--credits', '1000'])).toEqual({ kind: 'account-create', name: 'acme', credits: 1000 });
  });

  it('parses account ensure-dev --key-file', () => {
    expect(parseCliArgs(['account', 'ensure-dev', '--key-file', '.data/dev-api-key'])).toEqual({ kind: 'account-ensure-dev', keyFile: '.data/dev-api-key' });
  });

  it('parses credits grant with its idempotency key', () => {
    expect(parseCliArgs(['credits', 'grant', '--account', 'a1', '--amount=500', '--idempotency-key', 'promo-2025'])).toEqual({
      kind: 'credits-grant',
      accountId: 'a1',
      amount: 500,
      idempotencyKey: 'promo-2025',
    });
  });

  it('parses the key commands', () => {
    expect(parseCliArgs(['account', 'keys', 'list', '--account', 'a1'])).toEqual({ kind: 'keys-list', accountId: 'a1' });
    expect(parseCliArgs(['account', 'keys', 'create', '--account', 'a1', '--name', 'ci'])).toEqual({ kind: 'keys-create', accountId: 'a1', name: 'ci' });
    expect(parseCliArgs(['account', 'keys', 'create', '--account', 'a1'])).toEqual({ kind: 'keys-create', accountId: 'a1', name: null });
    expect(parseCliArgs(['account', 'keys', 'revoke', '--key', 'k1'])).toEqual({ kind: 'keys-revoke', keyId: 'k1' });
    expect(() => parseCliArgs(['account', 'keys', 'rotate'])).toThrow('unknown command "account keys rotate"');
  });

  it('parses suspend, reinstate and show', () => {
    expect(parseCliArgs(['account', 'suspend', '--account', 'a1'])).toEqual({ kind: 'account-suspend', accountId: 'a1' });
    expect(parseCliArgs(['account', 'reinstate', '--account', 'a1'])).toEqual({ kind: 'account-reinstate', accountId: 'a1' });
    expect(parseCliArgs(['account', 'show', '--account', 'a1'])).toEqual({ kind: 'account-show', accountId: 'a1' });
  });

  it('parses account limits: fractional rates, whole sizes, "default" clears one', () => {
    expect(
      parseCliArgs(['account', 'limits', '--account', 'a1', '--reads-per-second', '0.5', '--write-burst', '200', '--max-processing-jobs', 'default']),
    ).toEqual({ kind: 'account-limits', accountId: 'a1', changes: { reads_per_second: 0.5, write_burst: 200, max_processing_jobs: null } });
    expect(parseCliArgs(['account', 'limits', '--account', 'a1'])).toEqual({ kind: 'account-limits', accountId: 'a1', changes: {} });
    expect(() => parseCliArgs(['account', 'limits', '--account', 'a1', '--read-burst', '1.5'])).toThrow('--read-burst must be a whole number');
    expect(() => parseCliArgs(['account', 'limits', '--account', 'a1', '--writes-per-second', '0'])).toThrow('--writes-per-second must be a number above 0');
    expect(() => parseCliArgs(['account', 'limits', '--account', 'a1', '--writes-per-second', '-1'])).toThrow(UsageError);
  });

  it('parses dead-letters list and replay', () => {
    expect(parseCliArgs(['dead-letters', 'list'])).toEqual({ kind: 'dead-letters-list', limit: 20 });
    expect(parseCliArgs(['dead-letters', 'list', '--consumer', 'billing-job-events', '--limit', '5'])).toEqual({ kind: 'dead-letters-list', consumer: 'billing-job-events', limit: 5 });
    expect(parseCliArgs(['dead-letters', 'replay', '--seq', '42'])).toEqual({ kind: 'dead-letters-replay', seq: 42 });
    expect(() => parseCliArgs(['dead-letters', 'replay'])).toThrow('--seq is required');
    expect(() => parseCliArgs(['dead-letters', 'replay', '--seq', 'x'])).toThrow('--seq must be a whole number');
  });

  it('gives credits grant a fresh random idempotency key when none is given', () => {
    const first = parseCliArgs(['credits', 'grant', '--account', 'a1', '--amount', '5']);
    const second = parseCliArgs(['credits', 'grant', '--account', 'a1', '--amount', '5']);
    expect(first).toEqual({ kind: 'credits-grant', accountId: 'a1', amount: 5, idempotencyKey: expect.stringMatching(UUID) });
    expect(second).not.toEqual(first);
  });

  it.each([
    [['account', 'create'], '--name is required'],
    [['account', 'create', '--name'], '--name needs a value'],
    [['account', 'create', '--name', 'a', '--colour', 'red'], 'unknown option --colour'],
    [['account', 'create', '--name', 'a', '--credits', '0'], '--credits must be a whole number of credits from 1 to 2147483647'],
    [['account', 'create', '--name', 'a', '--credits', '10.5'], '--credits must be a whole number'],
    [['credits', 'grant', '--amount', '5'], '--account is required'],
    [['credits', 'grant', '--account', 'a1'], '--amount is required'],
    [['credits', 'grant', '--account', 'a1', '--amount', '-5'], '--amount must be a whole number'],
    [['credits', 'grant', '--account', 'a1', '--amount', '1e3'], '--amount must be a whole number'],
    [['credits', 'grant', '--account', 'a1', '--amount', '2147483648'], '--amount must be a whole number'],
    [['credits', 'grant', '--account', 'a1', '--amount', '5', '--idempotency-key', 'has space'], '--idempotency-key must be'],
    [['credits', 'grant', '--account', 'a1', '--amount', '5', '--amount', '6'], '--amount given twice'],
    [['credits', 'take', '--account', 'a1'], 'unknown command "credits take"'],
    [['account', 'delete'], 'unknown command "account delete"'],
    [[], 'no command given'],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});
