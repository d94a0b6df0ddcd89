import type { Segmenter } from './matting-model';
import { MattingModelRegistry } from './model-registry';

function segmenter(name: string, width: number, height: number): Segmenter {
  return {
    spec: { name, path: `/models/${name}.onnx`, width, height, layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1], output: 'probability' },
    segment: async () => new Float32Array(width * height),
  };
}

// segmentersFor is covered with the processor in processors/processors.spec.ts.
describe('MattingModelRegistry.describe', () => {
  it('lists the person variants and says when there is no general model', () => {
    const registry = new MattingModelRegistry({ person: [segmenter('person', 256, 256), segmenter('person', 256, 144)], general: [] });
    expect(registry.describe()).toBe('person (256x256, 256x144), no general model');
  });

  it('lists the general variants when the deployment has some', () => {
    const registry = new MattingModelRegistry({ person: [segmenter('person', 256, 256)], general: [segmenter('general', 320, 320), segmenter('general', 512, 288)] });
    expect(registry.describe()).toBe('person (256x256), general (320x320, 512x288)');
  });
});
