import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// The multipart uploads this machine started and has not finished (decision 0099), so `--resume` can
// send only what is missing. Kept beside the user's config (uploads.json), never in the project: by the
// file's absolute path, with its size and modification time (a file changed since is not resumed) and
// the API it went to.
export interface PendingUpload {
  upload_id: string;
  video_url: string;
  size: number;
  mtime_ms: number;
  api_url: string;
}

export class PendingUploads {
  private readonly file: string;

  constructor(configDir: string) {
    this.file = join(configDir, 'uploads.json');
  }

  find(path: string, file: { size: number; mtimeMs: number }, apiUrl: string): PendingUpload | null {
    const pending = this.read()[resolve(path)];
    return pending && pending.size === file.size && pending.mtime_ms === file.mtimeMs && pending.api_url === apiUrl ? pending : null;
  }

  remember(path: string, pending: PendingUpload): void {
    this.write({ ...this.read(), [resolve(path)]: pending });
  }

  forget(path: string): void {
    const all = this.read();
    if (!(resolve(path) in all)) return;
    delete all[resolve(path)];
    this.write(all);
  }

  private read(): Record<string, PendingUpload> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, PendingUpload>) : {};
    } catch {
      // Missing or damaged: nothing to resume, which a fresh upload mends.
      return {};
    }
  }

  // Written whole then renamed: a process killed mid-write leaves the old file, not half of one.
  private write(all: Record<string, PendingUpload>): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}
