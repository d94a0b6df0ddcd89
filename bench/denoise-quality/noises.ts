import { join } from 'node:path';

// The noise set: each noise as the ffmpeg inputs and filters that make it, from lavfi sources with
// fixed seeds or from the shared recordings, so every run (and anyone) gets the same samples. Each
// is written as a 48 kHz mono WAV of NOISE_SECONDS, which the mix loops or cuts to the speech.

const NOISE_SECONDS = 8;
const RATE = 48_000;

export interface NoiseSpec {
  name: string;
  // ffmpeg's inputs and -filter_complex (its output: the last chain's) for the clip being scored:
  // only babble depends on it, which must never hold that clip's speech.
  args(clip: string): string[];
  // Babble is made once per clip.
  perClip?: boolean;
}

// Where the speech clips and the shared recordings are, and the clips that may go into babble.
export interface NoiseSources {
  audioDir: string;
  speechFiles: readonly string[];
}

export function noiseSet(sources: NoiseSources): NoiseSpec[] {
  return [
    lavfi('white', `anoisesrc=color=white:seed=11:amplitude=0.3:r=${RATE}`),
    lavfi('pink', `anoisesrc=color=pink:seed=12:amplitude=0.3:r=${RATE}`),
    lavfi('brown', `anoisesrc=color=brown:seed=13:amplitude=0.3:r=${RATE}`),
    lavfi('hum-50', aeval(0.25, buzz(50))),
    lavfi('hum-60', aeval(0.25, buzz(60))),
    {
      name: 'fan',
      // A motor's 120 Hz with two harmonics under air hiss (pink noise, 300-4000 Hz) that swells slowly.
      args: () => [
        '-f', 'lavfi', '-i', aeval(0.03, harmonics(120, [1, 0.5, 0.25])),
        '-f', 'lavfi', '-i', `anoisesrc=color=pink:seed=14:amplitude=0.5:r=${RATE}`,
        '-filter_complex', `[1:a]${bandPass(300, 4000)},tremolo=f=0.25:d=0.4[hiss];[0:a][hiss]amix=inputs=2:normalize=0`,
      ],
    },
    // Two 2-pole low-passes: brown noise falls only 6 dB an octave, rumble has nothing above ~200 Hz.
    lavfi('rumble', `anoisesrc=color=brown:seed=15:amplitude=0.5:r=${RATE},lowpass=f=120:poles=2,lowpass=f=120:poles=2`),
    lavfi('keyboard', `${aeval(0.5, keystrokes(16))},highpass=f=400`),
    { name: 'babble', args: (clip) => babble(sources, clip), perClip: true },
    lavfi('music', aeval(0.06, chords())),
    { name: 'freesound-573577', args: () => ['-i', join(sources.audioDir, 'noise_freesound_573577_cc0.wav')] },
  ];
}

// `ffmpeg <args> ... out.wav`: the noise, cut to NOISE_SECONDS, as 48 kHz mono 16-bit.
export function noiseWavArgs(spec: NoiseSpec, clip: string, outPath: string): string[] {
  return ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...spec.args(clip), '-t', String(NOISE_SECONDS), '-ar', String(RATE), '-ac', '1', '-c:a', 'pcm_s16le', outPath];
}

// A room's impulse response: the direct sound, then seeded noise decaying 60 dB in `rt60` seconds
// (exp(-6.9078 t / rt60) in amplitude). The tail's level puts its energy near the direct sound's
// (0.04^2 / 3 over rt60 / 13.8 s of samples), like a talker a metre or two away. Float samples: the
// tail falls below 16-bit steps.
export function impulseResponseArgs(rt60: number, outPath: string): string[] {
  const source = `${aeval(1, `if(eq(n,0),1,0.04*(2*random(0)-1)*exp(-6.9078*t/${rt60}))`)}:d=${(1.2 * rt60).toFixed(2)}`;
  return ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-c:a', 'pcm_f32le', outPath];
}

// The clip convolved with the impulse response, as 48 kHz mono 16-bit. afir's gain is fixed (no auto
// gain) and turned down so the tail's build-up cannot clip; the score is scale-invariant.
export function reverberantArgs(speechPath: string, impulsePath: string, outPath: string): string[] {
  return [
    '-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', speechPath, '-i', impulsePath,
    '-filter_complex', `[0:a]aresample=${RATE}[dry];[dry][1:a]afir=gtype=none,volume=0.25`,
    '-ar', String(RATE), '-ac', '1', '-c:a', 'pcm_s16le', outPath,
  ];
}

function lavfi(name: string, source: string): NoiseSpec {
  return { name, args: () => ['-f', 'lavfi', '-i', source] };
}

// aevalsrc at 48 kHz, the expression quoted: its commas and semicolons are not the filtergraph's.
function aeval(gain: number, expression: string): string {
  return `aevalsrc=exprs='${gain}*(${expression})':s=${RATE}`;
}

// Mains buzz: the fundamental and its 2nd to 7th harmonics, the odd ones strong (a transformer's or
// a ground loop's rectified hum), falling with order.
function buzz(fundamental: number): string {
  return harmonics(fundamental, [1, 0.35, 0.7, 0.2, 0.45, 0.1, 0.3]);
}

function harmonics(fundamental: number, amplitudes: readonly number[]): string {
  return amplitudes.map((amplitude, i) => `${amplitude}*sin(2*PI*${fundamental * (i + 1)}*t)`).join('+');
}

function bandPass(low: number, high: number): string {
  return `highpass=f=${low}:poles=2,highpass=f=${low}:poles=2,lowpass=f=${high}:poles=2,lowpass=f=${high}:poles=2`;
}

// Typing: a noise burst decaying in 4 ms at each key, 80-380 ms apart with an occasional pause, at
// seeded times and strengths (ffmpeg has no seeded event times, so they are drawn here and written
// into the expression; random(0) is ffmpeg's own seeded noise).
function keystrokes(seed: number): string {
  const next = seededRandom(seed);
  const bursts: string[] = [];
  for (let at = 0.1 + next(); at < NOISE_SECONDS; at += 0.08 + 0.3 * next() + (next() < 0.1 ? 0.6 : 0)) {
    const t0 = at.toFixed(4);
    bursts.push(`if(between(t,${t0},${t0}+0.03),${(0.4 + 0.6 * next()).toFixed(2)}*exp((${t0}-t)/0.004),0)`);
  }
  return `(2*random(0)-1)*(${bursts.join('+')})`;
}

// Four chords (C, G, Am, F over a bass note), 1.2 s each, every note with two overtones, struck
// and fading: a music bed under a voice.
function chords(): string {
  const progression = [[0, 4, 7], [7, 11, 14], [9, 12, 16], [5, 9, 12]];
  const c3 = 130.81;
  const chord = (notes: readonly number[]): string =>
    [notes[0] - 12, ...notes].map((semitone) => harmonics(Number((c3 * 2 ** (semitone / 12)).toFixed(2)), [1, 0.4, 0.2])).join('+');
  // Only the sounding chord is evaluated: ffmpeg's if() takes one branch.
  const pick = progression.reduceRight((otherwise, notes, i) => `if(eq(ld(0),${i}),${chord(notes)},${otherwise})`, '0');
  return `st(0,mod(floor(t/1.2),4));st(1,mod(t,1.2));(1-exp(-40*ld(1)))*exp(-1.5*ld(1))*(${pick})`;
}

// The other speech clips and the ALSA "front center" recording, each looped and started at its own
// point: three voices over one another, none of them the clip being scored.
function babble(sources: NoiseSources, clip: string): string[] {
  const others = sources.speechFiles.filter((file) => file !== clip).map((file) => join(sources.audioDir, file));
  const voices = [...others, join(sources.audioDir, 'alsa_front_center.wav')];
  const inputs = voices.flatMap((path) => ['-stream_loop', '-1', '-i', path]);
  const shifted = voices.map((_, i) => `[${i}:a]aresample=${RATE},atrim=start=${(0.7 * i + 0.4).toFixed(1)},asetpts=N/SR/TB[v${i}]`);
  const mixed = `${voices.map((_, i) => `[v${i}]`).join('')}amix=inputs=${voices.length}:normalize=0`;
  return [...inputs, '-filter_complex', [...shifted, mixed].join(';')];
}

// mulberry32 (Tommy Ettinger's small 32-bit generator): a plain LCG's every third value, as drawn
// here, came out nearly evenly spaced. Values in [0, 1).
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
