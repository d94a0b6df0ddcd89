import type { Job, JobType, VideoJobs } from '@vj/sdk';
import { downloadLink } from './compare';
import { byId, el } from './dom';
import { JOB_TYPE_LABELS, formatCredits, shortId } from './format';

type ListedJob = Job & { type: JobType; created_at: string };

const PAGE_SIZE = 10;

function credits(job: Job): string {
  if (job.credits_charged !== undefined) return formatCredits(job.credits_charged);
  if (job.status === 'PROCESSING' && job.credits_estimated !== undefined) return `about ${formatCredits(job.credits_estimated)} (held)`;
  if (job.status === 'COMPLETED') return 'being charged';
  return 'none';
}

function files(job: Job): HTMLElement[] {
  if (job.status !== 'COMPLETED' || !job.result) return [];
  const result = job.result as { video?: Parameters<typeof downloadLink>[0]; files?: Parameters<typeof downloadLink>[0][] | null };
  const all = result.video ? [result.video] : (result.files ?? []);
  // The API names each file after its job; the row already says which job.
  return all.map((file) => downloadLink(file, 'Download', file.file_name?.replace(`${job.job_id}-`, '')));
}

// The account's jobs, newest first, a page at a time ("Show more"), with the job this page is running
// kept up to date in place.
export class JobsTable {
  private readonly body = byId<HTMLTableSectionElement>('jobs-body');
  private readonly more = byId<HTMLButtonElement>('more-jobs');
  private pages: AsyncIterator<ListedJob> | null = null;
  private generation = 0;

  constructor(
    private readonly client: () => VideoJobs | null,
    private readonly onError: (error: unknown) => void,
  ) {
    this.more.addEventListener('click', () => void this.loadPage(this.generation));
  }

  async reload(): Promise<void> {
    const client = this.client();
    if (!client) return;
    const generation = ++this.generation;
    this.pages = client.jobs.list({ pageSize: PAGE_SIZE })[Symbol.asyncIterator]();
    this.body.replaceChildren();
    await this.loadPage(generation);
  }

  clear(): void {
    this.generation++;
    this.pages = null;
    this.body.replaceChildren();
    this.more.hidden = true;
  }

  // A job this page created or followed: its row replaced, or added on top.
  upsert(job: Job, type: JobType, createdAt: string): void {
    const row = this.row({ ...job, type, created_at: createdAt });
    const existing = this.body.querySelector(`tr[data-job-id="${CSS.escape(job.job_id)}"]`);
    if (existing) existing.replaceWith(row);
    else this.body.prepend(row);
    this.body.querySelector('tr:not([data-job-id])')?.remove();
  }

  private async loadPage(generation: number): Promise<void> {
    const pages = this.pages;
    if (!pages) return;
    this.more.disabled = true;
    try {
      let done = false;
      for (let count = 0; count < PAGE_SIZE; count++) {
        const next = await pages.next();
        if (generation !== this.generation) return;
        if (next.done) {
          done = true;
          break;
        }
        if (!this.body.querySelector(`tr[data-job-id="${CSS.escape(next.value.job_id)}"]`)) this.body.append(this.row(next.value));
      }
      this.more.hidden = done;
      if (!this.body.children.length) this.body.append(el('tr', {}, el('td', { colSpan: 6, textContent: 'No jobs yet.' })));
    } catch (error) {
      if (generation === this.generation) this.onError(error);
    } finally {
      this.more.disabled = false;
    }
  }

  private row(job: ListedJob): HTMLTableRowElement {
    const created = new Date(job.created_at);
    return el(
      'tr',
      { dataset: { jobId: job.job_id } },
      el('td', {}, el('time', { dateTime: job.created_at, textContent: created.toLocaleString() })),
      el('td', { textContent: JOB_TYPE_LABELS[job.type] }),
      el('td', { className: 'mono', title: job.job_id, textContent: shortId(job.job_id) }),
      el('td', { className: 'status-word', textContent: job.status + (job.status === 'FAILED' && job.error ? ` (${job.error.code})` : '') }),
      el('td', { className: 'num', textContent: credits(job) }),
      el('td', { className: 'files' }, ...files(job)),
    );
  }
}
