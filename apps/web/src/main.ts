import './styles.css';
import type { CleanAudioVideoJob, Estimate, Job, JobType, Progress, VideoBackgroundRemovalJob, VideoJobs } from '@vj/sdk';
import { cleanAudioView, cutoutView, reportEntries, type CutoutExport, type ResultView } from './compare';
import { byId } from './dom';
import { describeError, formatBytes, formatCredits, formatPercent, isUnauthenticated, shortId } from './format';
import { JobForm } from './job-form';
import { JobsTable } from './jobs-table';
import { uploadResumably } from './resumable-upload';
import { clientFor, forgetApiKey, storeApiKey, storedApiKey } from './session';

const ui = {
  signInSection: byId('sign-in-section'),
  signInForm: byId<HTMLFormElement>('sign-in-form'),
  apiKey: byId<HTMLInputElement>('api-key'),
  signInError: byId('sign-in-error'),
  signOut: byId<HTMLButtonElement>('sign-out'),
  balance: byId('balance'),
  workspace: byId('workspace'),
  jobForm: byId<HTMLFormElement>('job-form'),
  dropZone: byId('drop-zone'),
  file: byId<HTMLInputElement>('video-file'),
  estimate: byId('estimate'),
  start: byId<HTMLButtonElement>('start'),
  cancel: byId<HTMLButtonElement>('cancel'),
  status: byId('status'),
  jobStatus: byId('job-status'),
  uploadProgress: byId<HTMLProgressElement>('upload-progress'),
  uploadDetail: byId('upload-detail'),
  processingProgress: byId<HTMLProgressElement>('processing-progress'),
  processingDetail: byId('processing-detail'),
  error: byId('error'),
  result: byId('result'),
  compare: byId('compare'),
  downloads: byId('downloads'),
  qualityReport: byId('quality-report'),
  refreshJobs: byId<HTMLButtonElement>('refresh-jobs'),
};

// An upload of the chosen file (resumed after a reload, resumable-upload.ts). The API deletes an upload
// once a job that read it ended, so the next job (or estimate) of the same file uploads it again.
interface UploadEntry {
  file: File;
  ticket: Promise<{ video_url: string }>;
  ended: boolean;
}

let client: VideoJobs | null = null;
let file: File | null = null;
let upload: UploadEntry | null = null;
let available: number | null = null;
let running: { jobId: string; type: JobType } | null = null;
let resultView: ResultView | null = null;
let estimateRun = 0;

const jobsTable = new JobsTable(() => client, (error) => handleError(error));
const form = new JobForm(() => void refreshEstimate());

function announce(text: string): void {
  ui.status.textContent = text;
}

function showError(text: string): void {
  ui.error.textContent = text;
}

// Any call refused with 401 means the key was revoked or mistyped: back to the sign-in form.
function handleError(error: unknown): void {
  if (isUnauthenticated(error)) signOut('The API refused this key (revoked, or mistyped). Sign in again.');
  else showError(describeError(error));
}

// ---- sign in and out ----

async function signIn(apiKey: string): Promise<void> {
  const candidate = clientFor(apiKey);
  ui.signInError.textContent = '';
  try {
    await refreshBalance(candidate);
  } catch (error) {
    forgetApiKey();
    ui.signInError.textContent = isUnauthenticated(error) ? 'This API key was refused: check it and try again.' : `Could not sign in: ${describeError(error)}`;
    ui.apiKey.focus();
    return;
  }
  client = candidate;
  storeApiKey(apiKey);
  ui.apiKey.value = '';
  ui.signInSection.hidden = true;
  ui.workspace.hidden = false;
  ui.signOut.hidden = false;
  ui.file.focus();
  void jobsTable.reload();
}

function signOut(message = ''): void {
  forgetApiKey();
  client = null;
  file = null;
  upload = null;
  ui.file.value = '';
  jobsTable.clear();
  clearResult();
  ui.workspace.hidden = true;
  ui.signOut.hidden = true;
  ui.balance.hidden = true;
  ui.signInSection.hidden = false;
  ui.signInError.textContent = message;
  ui.apiKey.focus();
}

async function refreshBalance(using: VideoJobs | null = client): Promise<void> {
  if (!using) return;
  const balance = await using.billing.balance();
  available = balance.available;
  ui.balance.textContent = `Balance: ${formatCredits(balance.available)} available${balance.held ? ` (${balance.held.toLocaleString('en')} held for running jobs)` : ''}`;
  ui.balance.hidden = false;
}

// ---- the file, its upload and the estimate ----

function chooseFile(chosen: File | null): void {
  file = chosen;
  showError('');
  estimateRun++;
  ui.estimate.textContent = '';
  ui.start.disabled = !chosen;
  if (!chosen) {
    upload = null;
    return;
  }
  currentUpload().catch(() => {
    // Shown by the upload itself.
  });
}

function startUpload(chosen: File): UploadEntry {
  const entry = { file: chosen, ended: false } as UploadEntry;
  entry.ticket = uploadResumably(client!, chosen, {
    onProgress: (sent, total) => upload === entry && setUploadProgress(sent, total),
    onResume: (stored) => upload === entry && announce(`Resuming the upload of ${chosen.name}: ${formatBytes(stored)} already stored.`),
  });
  upload = entry;
  announce(`Uploading ${chosen.name}…`);
  setUploadProgress(0, chosen.size);
  entry.ticket.then(
    () => {
      if (upload !== entry) return;
      announce(`Uploaded ${chosen.name}. Pick the job type and options, then start.`);
      void refreshEstimate();
    },
    (error: unknown) => {
      if (upload !== entry) return;
      upload = null;
      ui.uploadDetail.textContent = 'failed';
      announce(`The upload of ${chosen.name} failed.`);
      handleError(error);
    },
  );
  return entry;
}

// The chosen file's upload, started again when there is none yet or its job ended.
function currentUpload(): Promise<{ video_url: string }> {
  if (!file) return Promise.reject(new Error('Choose a video first.'));
  if (!upload || upload.file !== file || upload.ended) startUpload(file);
  return upload!.ticket;
}

function setUploadProgress(sent: number, total: number): void {
  ui.uploadProgress.value = total ? sent / total : 0;
  ui.uploadDetail.textContent = `${formatPercent(total ? sent / total : 0)} (${formatBytes(sent)} of ${formatBytes(total)})`;
}

// The price of the chosen job for this very file (its duration probed by the API), again whenever
// the type or an option changes; only the latest answer is shown.
async function refreshEstimate(): Promise<void> {
  const run = ++estimateRun;
  ui.estimate.classList.remove('short');
  if (!client || !file) return;
  const choice = form.read();
  if (!choice) {
    ui.estimate.textContent = 'Fix the options to see the price.';
    return;
  }
  ui.estimate.textContent = 'Estimating…';
  try {
    const { video_url } = await currentUpload();
    const estimate: Estimate =
      choice.type === 'clean-audio-video'
        ? await client.billing.estimate(choice.type, { ...choice.options, video_url })
        : await client.billing.estimate(choice.type, { ...choice.options, video_url });
    if (run !== estimateRun) return;
    const price =
      estimate.basis === 'probed_duration'
        ? `Estimate: ${formatCredits(estimate.credits_estimated)} for ${estimate.duration_seconds.toFixed(1)} s of video.`
        : `Estimate: up to ${formatCredits(estimate.credits_estimated)} (the duration could not be measured yet, so the longest allowed is priced; you pay for the real one).`;
    const short = available !== null && estimate.credits_estimated > available;
    ui.estimate.textContent = short ? `${price} That is more than your ${formatCredits(available!)} available.` : price;
    ui.estimate.classList.toggle('short', short);
  } catch (error) {
    if (run !== estimateRun) return;
    ui.estimate.textContent = 'No estimate.';
    if (isUnauthenticated(error)) handleError(error);
  }
}

// ---- running a job ----

function setBusy(busy: boolean): void {
  ui.start.disabled = busy || !file;
  ui.file.disabled = busy;
  form.jobType.disabled = busy;
  ui.cancel.hidden = !busy;
}

function showStatus(job: Pick<Job, 'status'>): void {
  ui.jobStatus.textContent = job.status;
}

function onProgress({ stage, progress }: Progress): void {
  ui.processingProgress.value = progress;
  const detail = `${stage} ${formatPercent(progress)}`;
  // The live region speaks when the stage changes, not at every percent.
  if (!ui.processingDetail.textContent?.startsWith(stage)) announce(`Processing: ${stage}.`);
  ui.processingDetail.textContent = detail;
}

// A background image file, uploaded now: the job names its upload.
async function backgroundImageOf(image: File | undefined): Promise<{ background: { image_url: string } } | Record<string, never>> {
  if (!image || !client) return {};
  announce(`Uploading ${image.name}…`);
  return { background: { image_url: (await client.uploads.upload(image)).video_url } };
}

async function startJob(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (!client || !file || running) return;
  const choice = form.read(true);
  if (!choice) return;
  showError('');
  clearResult();
  setBusy(true);
  ui.jobStatus.textContent = 'not created yet';
  const original = file;
  const sdk = client;
  await whileBusy('job', async () => {
    const { video_url } = await currentUpload();
    const entry = upload!;
    announce('Creating the job…');
    const created =
      choice.type === 'clean-audio-video'
        ? await sdk.cleanAudioVideo.create({ ...choice.options, video_url })
        : await sdk.videoBackgroundRemoval.create({ ...choice.options, video_url, ...(await backgroundImageOf(choice.backgroundFile)) });
    await follow(created, choice.type, original);
    // Its upload is deleted now that the job that read it ended.
    entry.ended = true;
  });
}

// A clean-audio job exported again at another strength (decision 0093): a new job, followed as one.
// `sourceJobId` stays the first job's: an export keeps no stems or matte of its own.
// A cut-out delivered again in another format, or on a new background, from its kept matte (decision
// 0094) goes the same way.
async function exportAgain(sourceJobId: string, original: File | null, request: { type: 'clean-audio-video'; strength: number } | { type: 'video-background-removal'; body: CutoutExport }): Promise<void> {
  if (!client || running) return;
  showError('');
  setBusy(true);
  const sdk = client;
  await whileBusy('export', async () => {
    announce('Creating the export…');
    const created =
      request.type === 'clean-audio-video'
        ? await sdk.cleanAudioVideo.export(sourceJobId, { strength: request.strength })
        : await sdk.videoBackgroundRemoval.export(sourceJobId, request.body);
    await follow(created, request.type, original, sourceJobId);
  });
}

// Runs a job (or an export) from its create to its end with the page busy; a failure says the `what`
// could not be run, and the page is free again either way.
async function whileBusy(what: 'job' | 'export', run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    announce(`The ${what} could not be run.`);
    handleError(error);
  } finally {
    running = null;
    setBusy(false);
  }
}

// Follows a created job to its end in the status panel and the jobs table, then shows its result.
async function follow(created: Job, type: JobType, original: File | null, remixSource = created.job_id): Promise<void> {
  const createdAt = new Date().toISOString();
  running = { jobId: created.job_id, type };
  showStatus(created);
  ui.processingProgress.value = 0;
  ui.processingDetail.textContent = '';
  jobsTable.upsert(created, type, createdAt);
  announce(`Job ${shortId(created.job_id)} is ${created.status}.`);
  void refreshBalance().catch(() => {});

  const final = await client!.jobs.wait(created, { type, allowFailure: true, onProgress });
  showStatus(final);
  jobsTable.upsert(final, type, createdAt);
  ui.processingDetail.textContent = final.status === 'COMPLETED' ? 'done' : final.status.toLowerCase();
  if (final.status === 'COMPLETED') {
    ui.processingProgress.value = 1;
    showResult(type, final, original, remixSource);
    // A cut-out's export re-encodes its source's matte: the source's report is the one.
    void showReport(type, type === 'video-background-removal' ? remixSource : final.job_id);
    announce(`Job ${shortId(final.job_id)} is COMPLETED. The result is below.`);
    void settle(final, type, createdAt);
  } else {
    announce(`Job ${shortId(final.job_id)} is ${final.status}.`);
    if (final.status === 'FAILED' && final.error) showError(`The job failed: ${final.error.message} [${final.error.code}]`);
    void refreshBalance().catch(() => {});
  }
}

// Billing records the charge a moment after COMPLETED: the row and the balance follow it.
async function settle(job: Job, type: JobType, createdAt: string): Promise<void> {
  try {
    const charged = await client!.jobs.wait(job, { type, allowFailure: true, charged: true });
    jobsTable.upsert(charged, type, createdAt);
    await refreshBalance();
  } catch {
    // The list and the balance catch up at the next refresh.
  }
}

async function cancelJob(): Promise<void> {
  if (!client || !running) return;
  ui.cancel.disabled = true;
  try {
    await client.jobs.cancel(running.jobId);
  } catch (error) {
    handleError(error);
  } finally {
    ui.cancel.disabled = false;
  }
}

// What the job measured of its own work, beside its players; none where it has no report.
let reportsAsked = 0;
async function showReport(type: JobType, jobId: string): Promise<void> {
  const asked = ++reportsAsked;
  try {
    const report = await client!.jobs.report(jobId);
    // A later result asked for its own meanwhile.
    if (asked !== reportsAsked) return;
    ui.qualityReport.replaceChildren(...reportEntries(type, report));
    ui.qualityReport.hidden = false;
  } catch {
    if (asked === reportsAsked) ui.qualityReport.hidden = true;
  }
}

function clearResult(): void {
  resultView?.dispose();
  resultView = null;
  ui.compare.replaceChildren();
  ui.downloads.replaceChildren();
  ui.qualityReport.replaceChildren();
  ui.qualityReport.hidden = true;
  ui.result.hidden = true;
}

function showResult(type: JobType, job: Job, original: File | null, remixSource: string): void {
  clearResult();
  resultView =
    type === 'clean-audio-video'
      ? cleanAudioView(job as CleanAudioVideoJob, original, (strength) => void exportAgain(remixSource, original, { type, strength }))
      : cutoutView(job as VideoBackgroundRemovalJob, (body) => void exportAgain(remixSource, original, { type, body }));
  ui.compare.replaceChildren(resultView.compare);
  ui.downloads.replaceChildren(...resultView.downloads);
  ui.result.hidden = false;
}

// ---- wiring ----

ui.signInForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const apiKey = ui.apiKey.value.trim();
  if (!apiKey) {
    ui.signInError.textContent = 'Paste your API key (npm start prints one; it is also in .data/dev-api-key).';
    ui.apiKey.focus();
    return;
  }
  void signIn(apiKey);
});
ui.signOut.addEventListener('click', () => signOut());
ui.file.addEventListener('change', () => chooseFile(ui.file.files?.[0] ?? null));
ui.jobForm.addEventListener('submit', (event) => void startJob(event as SubmitEvent));
ui.cancel.addEventListener('click', () => void cancelJob());
ui.refreshJobs.addEventListener('click', () => {
  void jobsTable.reload();
  void refreshBalance().catch(handleError);
});

// Drop a file anywhere on the zone; the file input stays the keyboard's way in.
ui.dropZone.addEventListener('dragover', (event) => {
  event.preventDefault();
  ui.dropZone.classList.add('dragging');
});
ui.dropZone.addEventListener('dragleave', () => ui.dropZone.classList.remove('dragging'));
ui.dropZone.addEventListener('drop', (event) => {
  event.preventDefault();
  ui.dropZone.classList.remove('dragging');
  const dropped = event.dataTransfer?.files;
  if (!dropped?.length || ui.file.disabled) return;
  ui.file.files = dropped;
  chooseFile(dropped[0]!);
});

const remembered = storedApiKey();
if (remembered) void signIn(remembered);
