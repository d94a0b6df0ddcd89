// @ts-check
// How strength mixes the denoised signal with the input, shared by rnnoise-filter.mjs (as it denoises)
// and remix-stems.mjs (from the stems it kept): output = strength * denoised + (1 - strength) * dry,
// where dry is the input less the share of the hum this strength takes out of it (decision 0088).

// From this strength up, the dry part loses all of its hum; below it, in proportion.
const HUM_GONE_FROM = 0.5;

/** @param {number} strength 0 to 1 */
export function humWeightFor(strength) {
  return Math.min(1, strength / HUM_GONE_FROM);
}
