import { providerChain } from './onnx-segmenter';

// Only the import needs ONNX Runtime: providerChain is pure, so no native addon is loaded.
jest.mock('onnxruntime-node', () => ({}));

describe('providerChain', () => {
  it('ends with cpu when nothing else is preferred', () => {
    expect(providerChain([])).toEqual(['cpu']);
    expect(providerChain(['cpu'])).toEqual(['cpu']);
  });

  it('keeps the preferred order and adds cpu as the last resort', () => {
    expect(providerChain(['tensorrt', 'cuda'])).toEqual(['tensorrt', 'cuda', 'cpu']);
  });

  it('moves cpu to the end wherever it was listed', () => {
    expect(providerChain(['cpu', 'cuda'])).toEqual(['cuda', 'cpu']);
  });

  it('tries each provider once', () => {
    expect(providerChain(['cuda', 'cpu', 'cuda', 'cpu'])).toEqual(['cuda', 'cpu']);
  });
});
