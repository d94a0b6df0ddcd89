import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuthenticateApiKeyUseCase } from './authenticate-api-key.use-case';
import type { CreateAccountUseCase, CreatedAccount } from './create-account.use-case';

export const DEV_ACCOUNT_NAME = 'development';

// `npm start`: the first start creates the development account and keeps its key in a file (0600);
// later starts read the key back. A key the database no longer knows (fresh database) is replaced.
export class EnsureDevAccountUseCase {
  constructor(
    private readonly createAccount: CreateAccountUseCase,
    private readonly authenticate: AuthenticateApiKeyUseCase,
  ) {}

  async execute(input: { keyFile: string }): Promise<CreatedAccount> {
    const existing = await readKey(input.keyFile);
    if (existing) {
      const principal = await this.authenticate.execute(existing);
      if (principal) return { account_id: principal.accountId, api_key: existing };
    }
    const created = await this.createAccount.execute({ name: DEV_ACCOUNT_NAME });
    await mkdir(dirname(input.keyFile), { recursive: true });
    await writeFile(input.keyFile, `${created.api_key}\n`, { mode: 0o600 });
    // writeFile's mode applies only to new files.
    await chmod(input.keyFile, 0o600);
    return created;
  }
}

async function readKey(path: string): Promise<string | null> {
  try {
    return (await readFile(path, 'utf8')).trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
