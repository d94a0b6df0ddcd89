// Scale-invariant signal-to-distortion ratio in dB (Le Roux et al., "SDR - half-baked or well
// done?", 2019): how much of the estimate is the reference, whatever its gain. Both signals are
// made zero-mean first.
export function siSdr(estimate: ArrayLike<number>, reference: ArrayLike<number>): number {
  if (estimate.length !== reference.length || reference.length === 0) {
    throw new Error(`siSdr needs two signals of the same, non-zero length (${estimate.length} vs ${reference.length})`);
  }
  const estimateMean = mean(estimate);
  const referenceMean = mean(reference);
  let cross = 0;
  let referenceEnergy = 0;
  for (let i = 0; i < reference.length; i++) {
    const r = reference[i] - referenceMean;
    cross += (estimate[i] - estimateMean) * r;
    referenceEnergy += r * r;
  }
  const scale = cross / referenceEnergy;
  let targetEnergy = 0;
  let distortionEnergy = 0;
  for (let i = 0; i < reference.length; i++) {
    const target = scale * (reference[i] - referenceMean);
    const distortion = estimate[i] - estimateMean - target;
    targetEnergy += target * target;
    distortionEnergy += distortion * distortion;
  }
  return 10 * Math.log10(targetEnergy / distortionEnergy);
}

function mean(signal: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < signal.length; i++) sum += signal[i];
  return sum / signal.length;
}
