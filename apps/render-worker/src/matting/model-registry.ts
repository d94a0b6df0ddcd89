import { JobFailure } from '../errors/job-failure';
import type { Segmenter } from './matting-model';

// The models a worker has opened: the person model always, a general-foreground one when the
// deployment declares it.
export class MattingModelRegistry {
  constructor(private readonly models: { person: readonly Segmenter[]; general: readonly Segmenter[] }) {}

  // The variants that serve a job, or its input_validation failure naming the field.
  segmentersFor(subjectIsPerson: boolean): readonly Segmenter[] {
    if (subjectIsPerson) return this.models.person;
    if (this.models.general.length > 0) return this.models.general;
    throw new JobFailure('input_validation', 'This deployment has no general foreground model', [
      {
        type: 'model_unavailable',
        message: 'subject_is_person: false needs a general foreground model, and none is configured here; use subject_is_person: true for people',
        field: 'subject_is_person',
      },
    ]);
  }

  // Where each model runs, for the boot log.
  describe(): string {
    const where = (segmenters: readonly Segmenter[]) =>
      segmenters.map((s) => `${s.spec.width}x${s.spec.height}${s.executionProvider ? ` on ${s.executionProvider}` : ''}`).join(', ');
    return `person (${where(this.models.person)})` + (this.models.general.length > 0 ? `, general (${where(this.models.general)})` : ', no general model');
  }
}
