import { VideoJobsError, type VideoJobs } from '@vj/sdk';

// Multipart uploads not complete yet, by file, in localStorage: after a reload or a closed tab the
// same file, chosen again, sends only the parts storage lacks (decision 0099). Only upload ids are
// kept, which are nothing without the account's API key; another account's id answers 404.
const STORAGE_KEY = 'vj.pending-uploads';
// The API aborts an upload never completed after UPLOAD_RETENTION_HOURS (a day by default); a week
// bounds what a forgotten entry can cost, and a few entries what the storage holds.
const KEPT_MS = 7 * 24 * 3_600_000;
const MAX_ENTRIES = 20;

interface PendingUpload {
  uploadId: string;
  startedAt: number;
}

type Pending = Record<string, PendingUpload>;

export interface UploadProgress {
  onProgress: (sent: number, total: number) => void;
  // Told before a resume sends anything, with the bytes storage already holds.
  onResume: (stored: number) => void;
}

// The file's upload: its unfinished one resumed when there is one, else a new one.
export async function uploadResumably(client: VideoJobs, file: File, progress: UploadProgress): Promise<{ video_url: string }> {
  const resumable = await resumableUpload(client, file);
  if (resumable) {
    let first = true;
    const onProgress = (sent: number, total: number) => {
      if (first) progress.onResume(sent);
      first = false;
      progress.onProgress(sent, total);
    };
    const state = await client.uploads.resume(resumable, file, { onProgress });
    forget(file);
    return state;
  }
  const upload = await client.uploads.upload(file, { onProgress: progress.onProgress, onStart: (ticket) => remember(file, ticket.upload_id) });
  forget(file);
  return upload;
}

// The remembered upload of this file, where the API still holds it for this file; else it is forgotten.
async function resumableUpload(client: VideoJobs, file: File): Promise<string | null> {
  const pending = read()[fingerprint(file)];
  if (!pending) return null;
  try {
    const state = await client.uploads.get(pending.uploadId);
    if (state.parts && state.file_size === file.size && state.file_name === file.name) return pending.uploadId;
  } catch (error) {
    // Anything but "gone" (an outage, a rate limit) fails this try and keeps the entry for the next.
    if (!(error instanceof VideoJobsError && error.status === 404)) throw error;
  }
  forget(file);
  return null;
}

// Name, size and modification time: what the page can know of a file without reading it.
function fingerprint(file: File): string {
  return JSON.stringify([file.name, file.size, file.lastModified]);
}

function remember(file: File, uploadId: string): void {
  const now = Date.now();
  const kept = Object.entries(read())
    .filter(([, entry]) => now - entry.startedAt < KEPT_MS)
    .sort(([, a], [, b]) => b.startedAt - a.startedAt)
    .slice(0, MAX_ENTRIES - 1);
  write({ ...Object.fromEntries(kept), [fingerprint(file)]: { uploadId, startedAt: now } });
}

function forget(file: File): void {
  const pending = read();
  if (!(fingerprint(file) in pending)) return;
  delete pending[fingerprint(file)];
  write(pending);
}

function read(): Pending {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    // Only well-formed entries: the storage is the user's to edit.
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, PendingUpload] => {
        const value = entry[1] as Partial<PendingUpload> | null;
        return typeof value?.uploadId === 'string' && typeof value.startedAt === 'number';
      }),
    );
  } catch {
    return {};
  }
}

function write(pending: Pending): void {
  try {
    if (Object.keys(pending).length) localStorage.setItem(STORAGE_KEY, JSON.stringify(pending));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode quotas): this upload then cannot be resumed after a reload.
  }
}
