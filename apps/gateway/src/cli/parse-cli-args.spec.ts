import { parseCliArgs, UsageError } from './parse-cli-args';

describe('parseCliArgs', () => {
  it('parses account create --name in both flag forms', () => {
    expect(parseCliArgs(['account', 'create', '--name', 'acme'])).toEqual({ kind: 'account-create', name: 'acme' });
    expect(parseCliArgs(['account', 'create', '--name=acme inc'])).toEqual({ kind: 'account-create', name: 'acme inc' });
  });

  it('parses account ensure-dev --key-file', () => {
    expect(parseCliArgs(['account', 'ensure-dev', '--key-file', '.data/dev-api-key'])).toEqual({ kind: 'account-ensure-dev', keyFile: '.data/dev-api-key' });
  });

  it.each([
    [['account', 'create'], '--name is required'],
    [['account', 'create', '--name'], '--name needs a value'],
    [['account', 'create', '--name', 'a', '--colour', 'red'], 'unknown option --colour'],
    [['account', 'create', '--name', 'a', '--credits', '1000'], '--credits arrives with billing'],
    [['credits', 'grant', '--account', 'x', '--amount', '5'], 'credits grant arrives with billing'],
    [['account', 'delete'], 'unknown command "account delete"'],
    [[], 'no command given'],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});
