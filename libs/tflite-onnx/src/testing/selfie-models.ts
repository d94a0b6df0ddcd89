import { dirname, join } from 'node:path';

// The two TFLite models shipped in @mediapipe/selfie_segmentation, with their graph I/O as read
// from the files.
export interface SelfieModel {
  path: string;
  input: string;
  output: string;
  height: number;
  width: number;
}

const MODELS_DIR = dirname(require.resolve('@mediapipe/selfie_segmentation/package.json'));

export const SQUARE_MODEL: SelfieModel = {
  path: join(MODELS_DIR, 'selfie_segmentation.tflite'),
  input: 'input_1',
  output: 'activation_10',
  height: 256,
  width: 256,
};

export const LANDSCAPE_MODEL: SelfieModel = {
  path: join(MODELS_DIR, 'selfie_segmentation_landscape.tflite'),
  input: 'input_1',
  output: 'segment_back',
  height: 144,
  width: 256,
};
