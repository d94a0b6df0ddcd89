import type { CleanAudioVideoJob, CleanAudioVideoReport, ExportVideoBackgroundRemovalJob, FileObject, JobReport, JobType, VideoBackgroundRemovalJob, VideoBackgroundRemovalReport } from '@vj/sdk';
import { el } from './dom';
import { formatBytes } from './format';

// What a result view leaves running (a drawing loop, an object URL) and stops when replaced.
export interface ResultView {
  compare: HTMLElement;
  downloads: HTMLElement[];
  dispose(): void;
}

export function downloadLink(file: FileObject, label: string, shownName = file.file_name): HTMLAnchorElement {
  const details = [shownName, file.file_size === undefined ? undefined : formatBytes(file.file_size)].filter(Boolean).join(', ');
  // The presigned URL also says `Content-Disposition: attachment` with the file name, so the file is
  // saved even where a browser ignores `download` on another origin (the storage endpoint).
  return el('a', { href: file.url, download: file.file_name ?? '', textContent: details ? `${label} (${details})` : label });
}

function figure(caption: string, ...content: Node[]): HTMLElement {
  return el('figure', {}, el('figcaption', { textContent: caption }), ...content);
}

function media<K extends 'video' | 'audio'>(tag: K, src: string, label: string, props: Partial<HTMLVideoElement> = {}): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  // crossOrigin before src: a video drawn into a canvas must be fetched with CORS.
  Object.assign(element, { controls: true, preload: 'metadata' }, props);
  element.setAttribute('aria-label', label);
  element.src = src;
  return element;
}

// Clean audio: the cleaned video, and the sound before (the dropped file, from memory) and after.
// With `remix`, a strength to export the job at again (decision 0093: from its kept stems, without
// the denoiser, at the export price).
export function cleanAudioView(job: CleanAudioVideoJob, original: File | null, remix?: (strength: number) => void): ResultView {
  const video = job.result!.video;
  const before = original ? URL.createObjectURL(original) : null;
  const compare = el(
    'div',
    { className: 'compare' },
    figure('Cleaned video', media('video', video.url, 'Cleaned video', { className: 'preview', playsInline: true })),
    ...(before ? [figure('Before: the sound of your file', media('audio', before, 'Sound before cleaning'))] : []),
    figure('After: the cleaned sound', media('audio', video.url, 'Sound after cleaning')),
    ...(remix ? [remixForm(remix)] : []),
  );
  return { compare, downloads: [downloadLink(video, 'Download the cleaned video')], dispose: () => before && URL.revokeObjectURL(before) };
}

type OutputCodec = NonNullable<ExportVideoBackgroundRemovalJob['output_codec']>;

const OUTPUT_CODECS: Record<OutputCodec, string> = {
  vp9: 'VP9 WebM with alpha',
  h264: 'H.264 picture and matte',
  prores: 'ProRes 4444 with alpha',
  png_sequence: 'PNG sequence (ZIP)',
};

// What an export of a cut-out asks for: another format, or the person on a new background (one
// opaque H.264 MP4, the only output the API composites into).
export type CutoutExport = Omit<ExportVideoBackgroundRemovalJob, 'webhook_url'>;

const BACKGROUNDS = { color: 'H.264 on a colour', blur: 'H.264 on its own scene, blurred' } as const;

function reexportForm(reexport: (request: CutoutExport) => void): HTMLFormElement {
  const choices = { ...OUTPUT_CODECS, ...BACKGROUNDS };
  const deliver = el('select', { id: 'reexport-as' }, ...Object.entries(choices).map(([value, label]) => el('option', { value, textContent: label })));
  const color = el('input', { id: 'reexport-color', type: 'color', value: '#00b140' });
  const blur = el('input', { id: 'reexport-blur', type: 'range', min: '0', max: '1', step: '0.05', value: '0.5' });
  const colorLabel = el('label', { htmlFor: 'reexport-color', textContent: 'Colour ' }, color);
  const blurLabel = el('label', { htmlFor: 'reexport-blur', textContent: 'Blur ' }, blur);
  const showChosen = (): void => {
    colorLabel.hidden = deliver.value !== 'color';
    blurLabel.hidden = deliver.value !== 'blur';
  };
  deliver.addEventListener('change', showChosen);
  showChosen();
  const label = el('label', { htmlFor: 'reexport-as', textContent: 'Deliver the same cut-out as ' });
  return exportForm([label, deliver, colorLabel, blurLabel], 'Export (no new matting, at the export price)', () => {
    if (deliver.value === 'color') reexport({ output_codec: 'h264', background: { color: color.value } });
    else if (deliver.value === 'blur') reexport({ output_codec: 'h264', background: { blur: Number(blur.value) } });
    else reexport({ output_codec: deliver.value as OutputCodec });
  });
}

function remixForm(remix: (strength: number) => void): HTMLFormElement {
  const strength = el('input', { id: 'remix-strength', type: 'range', min: '0', max: '1', step: '0.05', value: '0.5' });
  const shown = el('output', { id: 'remix-strength-value', textContent: '0.50' });
  shown.htmlFor.add('remix-strength');
  strength.addEventListener('input', () => (shown.textContent = Number(strength.value).toFixed(2)));
  const label = el('label', { htmlFor: 'remix-strength', textContent: 'Another strength (0 keeps the noise, 1 removes the most) ' });
  return exportForm([label, strength, shown], 'Remix (no new denoising, at the export price)', () => remix(Number(strength.value)));
}

// A form that exports the job shown again: its controls, then the button that submits them.
function exportForm(controls: HTMLElement[], button: string, submit: () => void): HTMLFormElement {
  const form = el('form', { className: 'remix' }, ...controls, el('button', { type: 'submit', textContent: button }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  return form;
}

// A job's quality report as the terms and values of a description list.
export function reportEntries(type: JobType, report: JobReport): HTMLElement[] {
  const rows: [string, string][] = type === 'clean-audio-video' ? audioRows(report as CleanAudioVideoReport) : cutoutRows(report as VideoBackgroundRemovalReport);
  return rows.flatMap(([term, value]) => [el('dt', { textContent: term }), el('dd', { textContent: value })]);
}

function audioRows({ input, output, audio_offset_ms, picture }: CleanAudioVideoReport): [string, string][] {
  const level = (value: number | null, unit: string): string => (value === null ? 'silent' : `${value.toFixed(1)} ${unit}`);
  const beforeAfter = (before: number | null, after: number | null, unit: string): string => `${level(before, unit)} → ${level(after, unit)}`;
  return [
    ['Loudness', beforeAfter(input.integrated_lufs, output.integrated_lufs, 'LUFS')],
    ['True peak', beforeAfter(input.true_peak_dbtp, output.true_peak_dbtp, 'dBTP')],
    ['Noise floor', beforeAfter(input.noise_floor_dbfs, output.noise_floor_dbfs, 'dBFS')],
    ['Audio offset', audio_offset_ms === null ? 'not measurable' : `${audio_offset_ms} ms`],
    ['Picture', picture.identical ? 'copied bit for bit' : 'changed'],
  ];
}

function cutoutRows({ frames, frames_with_person, person_frame_share, flicker }: VideoBackgroundRemovalReport): [string, string][] {
  return [
    ['Frames with a person', `${frames_with_person} of ${frames} (${(100 * person_frame_share).toFixed(1)} %)`],
    ['Flicker', flicker.toFixed(5)],
  ];
}

const EDITOR_FILES: Record<string, string> = {
  'video/quicktime': 'ProRes 4444 with alpha: open it in an editing suite (Premiere, Final Cut, DaVinci Resolve, After Effects); browsers cannot play it.',
  'application/zip': 'A ZIP of RGBA PNGs, one a frame (frames/000000.png on), with the sound as audio.wav: import it as an image sequence in an editing suite.',
};

// Background removal: a VP9 WebM with alpha plays over the checkerboard as it is (Chromium and Firefox
// decode its alpha); an H.264 picture and its matte are composited in a canvas, frame by frame.
// With `reexport`, another format to deliver the job's kept matte as (decision 0094: without the model,
// at the export price).
export function cutoutView(job: VideoBackgroundRemovalJob, reexport?: (request: CutoutExport) => void): ResultView {
  const view = cutoutPreview(job);
  return reexport ? { ...view, compare: el('div', {}, view.compare, reexportForm(reexport)) } : view;
}

function cutoutPreview(job: VideoBackgroundRemovalJob): ResultView {
  const files = job.result?.files ?? [];
  const matte = files.find((file) => file.file_name?.endsWith('-matte.mp4')) ?? (files.length === 2 ? files[1] : undefined);
  const picture = files.find((file) => file !== matte);
  const downloads = files.map((file) => downloadLink(file, file === matte ? 'Download the alpha matte' : file.file_name?.endsWith('-composite.mp4') ? 'Download the video' : 'Download the cut-out'));
  if (!picture) return { compare: el('p', { textContent: 'The job has no result file.' }), downloads, dispose: () => {} };
  // Browsers decode no ProRes, and a ZIP of PNGs is no video: both are for editing suites.
  const forEditors = EDITOR_FILES[picture.content_type ?? ''];
  if (forEditors) return { compare: el('p', { className: 'hint', textContent: forEditors }), downloads, dispose: () => {} };
  if (picture.file_name?.endsWith('-composite.mp4')) {
    const video = media('video', picture.url, 'The person on the new background', { className: 'preview', loop: true, playsInline: true });
    return { compare: figure('The person on the new background', video), downloads, dispose: () => {} };
  }
  if (!matte) {
    const video = media('video', picture.url, 'Cut-out over a checkerboard', { className: 'preview', loop: true, playsInline: true });
    return { compare: figure('Cut-out over a checkerboard', el('div', { className: 'checkerboard' }, video)), downloads, dispose: () => {} };
  }
  return { ...composited(picture, matte), downloads };
}

// The picture's native controls drive playback (and play the sound); the matte follows its clock and
// each frame's alpha is the matte's luma (white = opaque).
function composited(pictureFile: FileObject, matteFile: FileObject): Omit<ResultView, 'downloads'> {
  const picture = media('video', pictureFile.url, 'Picture (plays the sound)', { className: 'preview', crossOrigin: 'anonymous', loop: true, playsInline: true, preload: 'auto' });
  // In the page (under the checkerboard, out of sight): Chromium pauses a muted video it deems off screen.
  const matte = media('video', matteFile.url, 'Alpha matte', { crossOrigin: 'anonymous', loop: true, muted: true, controls: false, playsInline: true, preload: 'auto' });
  matte.setAttribute('aria-hidden', 'true');
  const canvas = el('canvas', { width: 16, height: 16 });
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'The cut-out over a checkerboard: the picture with the matte as its transparency');
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  const matteCanvas = el('canvas');
  const matteContext = matteCanvas.getContext('2d', { willReadFrequently: true })!;
  const note = el('p', { className: 'hint' });
  let frame = 0;
  let stopped = false;
  let drawn = '';

  const draw = () => {
    const { videoWidth: width, videoHeight: height } = picture;
    // Only when a frame changed: a paused preview costs nothing.
    const stamp = `${picture.currentTime}/${matte.currentTime}/${width}x${height}`;
    if (stamp !== drawn && width && height && picture.readyState >= 2 && matte.readyState >= 2) {
      drawn = stamp;
      if (!picture.paused && matte.paused) void matte.play().catch(() => {});
      if (Math.abs(matte.currentTime - picture.currentTime) > 0.1 && !matte.seeking) matte.currentTime = picture.currentTime;
      if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
      if (matteCanvas.width !== width || matteCanvas.height !== height) Object.assign(matteCanvas, { width, height });
      context.drawImage(picture, 0, 0, width, height);
      matteContext.drawImage(matte, 0, 0, width, height);
      try {
        const image = context.getImageData(0, 0, width, height);
        const alpha = matteContext.getImageData(0, 0, width, height).data;
        for (let i = 3; i < image.data.length; i += 4) image.data[i] = alpha[i - 3]!;
        context.putImageData(image, 0, 0);
      } catch {
        // A storage endpoint without CORS taints the canvas: say so instead of failing every frame.
        note.textContent = 'The storage endpoint does not allow this page to read the files (CORS), so the cut-out cannot be composited here; download both files instead.';
        stopped = true;
      }
    }
    if (!stopped) frame = requestAnimationFrame(draw);
  };
  picture.addEventListener('play', () => void matte.play().catch(() => {}));
  picture.addEventListener('pause', () => matte.pause());
  picture.addEventListener('seeking', () => (matte.currentTime = picture.currentTime));
  frame = requestAnimationFrame(draw);

  const compare = el(
    'div',
    { className: 'compare' },
    figure('Cut-out over a checkerboard (H.264 picture + matte)', el('div', { className: 'layered' }, matte, el('div', { className: 'checkerboard' }, canvas)), note),
    figure('Picture (plays the sound)', picture),
  );
  return {
    compare,
    dispose: () => {
      stopped = true;
      cancelAnimationFrame(frame);
      for (const video of [picture, matte]) {
        video.pause();
        video.removeAttribute('src');
        video.load();
      }
    },
  };
}
