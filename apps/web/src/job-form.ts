import type { CreateCleanAudioVideoJob, CreateVideoBackgroundRemovalJob, JobType } from '@vj/sdk';
import { byId } from './dom';

// A create body without its video_url, which comes from the upload; a background image file is
// uploaded when the job starts, and its upload:// URL becomes the background's image_url (it does not
// change the price, so estimates leave it out).
export type JobChoice =
  | { type: 'clean-audio-video'; options: Omit<CreateCleanAudioVideoJob, 'video_url'> }
  | { type: 'video-background-removal'; options: Omit<CreateVideoBackgroundRemovalJob, 'video_url'>; backgroundFile?: File };

// The job type and option controls of the "New job" form (index.html).
export class JobForm {
  readonly jobType = byId<HTMLSelectElement>('job-type');
  private readonly cleanAudio = byId<HTMLFieldSetElement>('clean-audio-options');
  private readonly background = byId<HTMLFieldSetElement>('background-options');
  private readonly strength = byId<HTMLInputElement>('strength');
  private readonly strengthValue = byId<HTMLOutputElement>('strength-value');
  private readonly normalize = byId<HTMLInputElement>('normalize-loudness');
  private readonly targetLufs = byId<HTMLInputElement>('target-lufs');
  private readonly codec = byId<HTMLSelectElement>('output-codec');
  private readonly refine = byId<HTMLInputElement>('refine-edges');
  private readonly newBackground = byId<HTMLSelectElement>('new-background');
  private readonly backgroundColor = byId<HTMLInputElement>('background-color');
  private readonly backgroundBlur = byId<HTMLInputElement>('background-blur');
  private readonly backgroundImage = byId<HTMLInputElement>('background-image');
  private readonly backgroundImageFile = byId<HTMLInputElement>('background-image-file');

  constructor(onChange: () => void) {
    const changed = () => {
      this.sync();
      onChange();
    };
    for (const control of [this.jobType, this.strength, this.normalize, this.targetLufs, this.codec, this.refine, this.newBackground, this.backgroundColor, this.backgroundBlur, this.backgroundImage, this.backgroundImageFile]) {
      control.addEventListener('change', changed);
    }
    this.strength.addEventListener('input', () => this.sync());
    this.sync();
  }

  get type(): JobType {
    return this.jobType.value as JobType;
  }

  // The options as the API takes them, or null (with the browser's message on the control) when one
  // is out of range.
  read(report = false): JobChoice | null {
    const controls =
      this.type === 'clean-audio-video'
        ? [this.strength, this.targetLufs]
        : this.newBackground.value === 'image'
          ? [this.backgroundImage]
          : this.newBackground.value === 'image-file'
            ? [this.backgroundImageFile]
            : [];
    const invalid = controls.find((control) => !control.checkValidity() || control.value === '');
    if (invalid) {
      if (report) invalid.reportValidity();
      return null;
    }
    if (this.type === 'clean-audio-video') {
      return {
        type: 'clean-audio-video',
        options: {
          strength: Number(this.strength.value),
          normalize_loudness: this.normalize.checked,
          ...(this.normalize.checked && { target_lufs: Number(this.targetLufs.value) }),
        },
      };
    }
    const refine_foreground_edges = this.refine.checked;
    // A composite is one opaque H.264 MP4: the API takes no other output with a background.
    if (this.newBackground.value === 'color') return { type: 'video-background-removal', options: { output_codec: 'h264', refine_foreground_edges, background: { color: this.backgroundColor.value } } };
    if (this.newBackground.value === 'blur') return { type: 'video-background-removal', options: { output_codec: 'h264', refine_foreground_edges, background: { blur: Number(this.backgroundBlur.value) } } };
    if (this.newBackground.value === 'image') return { type: 'video-background-removal', options: { output_codec: 'h264', refine_foreground_edges, background: { image_url: this.backgroundImage.value.trim() } } };
    const backgroundFile = this.newBackground.value === 'image-file' ? this.backgroundImageFile.files?.[0] : undefined;
    if (backgroundFile) return { type: 'video-background-removal', options: { output_codec: 'h264', refine_foreground_edges }, backgroundFile };
    return { type: 'video-background-removal', options: { output_codec: this.codec.value as CreateVideoBackgroundRemovalJob['output_codec'], refine_foreground_edges } };
  }

  // Only the chosen type's options are shown; the loudness target only when loudness is normalised.
  private sync(): void {
    this.cleanAudio.hidden = this.type !== 'clean-audio-video';
    this.background.hidden = this.type !== 'video-background-removal';
    this.codec.disabled = this.newBackground.value !== 'none';
    byId('background-color-label').hidden = this.newBackground.value !== 'color';
    byId('background-blur-label').hidden = this.newBackground.value !== 'blur';
    byId('background-image-label').hidden = this.newBackground.value !== 'image';
    byId('background-image-file-label').hidden = this.newBackground.value !== 'image-file';
    this.targetLufs.disabled = !this.normalize.checked;
    this.strengthValue.value = Number(this.strength.value).toFixed(2);
  }
}
