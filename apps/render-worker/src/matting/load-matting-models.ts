import { MattingModelRegistry } from './model-registry';
import { readModelsFile } from './models-file';
import type { MattingModelSpec } from './matting-model';
import { OnnxSegmenter, type OnnxSettings } from './onnx-segmenter';
import { preparePersonModels } from './person-model';

export interface MattingModelSettings extends OnnxSettings {
  cacheDir: string;
  modelsFile?: string;
}

// Opens every model once, at boot: a missing or broken model stops the worker from starting rather
// than failing jobs one by one.
export async function loadMattingModels(settings: MattingModelSettings): Promise<MattingModelRegistry> {
  const declared = settings.modelsFile ? await readModelsFile(settings.modelsFile) : {};
  const person = declared.person ?? (await preparePersonModels(settings.cacheDir));
  const open = (specs: readonly MattingModelSpec[]) => Promise.all(specs.map((spec) => OnnxSegmenter.open(spec, settings)));
  const personSegmenters = await open(person);
  try {
    return new MattingModelRegistry({ person: personSegmenters, general: await open(declared.general ?? []) });
  } catch (error) {
    // A failed boot leaves no model threads behind.
    await Promise.all(personSegmenters.map((segmenter) => segmenter.release()));
    throw error;
  }
}
