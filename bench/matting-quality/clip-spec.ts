// A synthetic clip as data: webcam people (cut out with their reference matte) walking through a
// drawn room, seen by a still or moving camera. The clip renderer (render-clip.ts) turns it into a
// video and its exact alpha.

export type Edge = 'left' | 'right' | 'top' | 'bottom';

// The webcam clips in ../shared/media/video, by file name without extension.
export type SourceName = 'again' | 'thanks';

// Where a person goes, in the world (the room, larger than the frame when the camera moves).
export type Path =
  // In by one edge, to a spot, out by an edge: wholly outside the world before `start` and after
  // `end` (seconds), `pause` seconds standing on the spot, at constant speed otherwise. `lane` places
  // the spot across the world, 0 at the left edge to 1 at the right (0.5 by default).
  | { kind: 'through'; from: Edge; to: Edge; start: number; end: number; pause?: number; lane?: number }
  // Across the room from `inset` pixels off one side to `inset` off the other, the whole clip long,
  // never leaving the frame (the issue-14 small-person clips).
  | { kind: 'across'; leftward: boolean; inset: number };

export interface WalkerSpec {
  source: SourceName;
  // The cut-out's height as a share of the frame's height (the person fills nearly all of it).
  height: number;
  path: Path;
  // Between the cut-out's bottom and the world's bottom, as a share of the frame's height: 0 stands on
  // the bottom edge (the legs run out of the frame, as a near person's do); negative cuts the person
  // further, positive stands them higher, as a farther person seen from above.
  floor?: number;
  // The source frame shown first, so that two people do not move in step.
  firstFrame?: number;
}

export type CameraSpec =
  | { kind: 'static' }
  // A pan from the world's left to its right, easing in and out, over the whole clip: the world is
  // `travel` pixels wider than the frame.
  | { kind: 'pan'; travel: number }
  // A handheld camera wandering up to `amplitude` pixels either way, a few times a second.
  | { kind: 'shake'; amplitude: number; seed: number };

export type FurnitureKind = 'table' | 'coat-on-chair' | 'plant';

export interface FurnitureSpec {
  kind: FurnitureKind;
  // The object's centre across the world, 0 to 1.
  at: number;
  // Its height as a share of the frame's height; it stands on the world's bottom edge.
  height: number;
}

// What a real camera adds to a drawn room: the people's shadows, sensor grain and auto-exposure.
export interface CameraLight {
  // Each person's shadow on the wall behind: their silhouette moved by `offset` (shares of the frame's
  // height, right and up), blurred over `blur` pixels, darkening the wall by up to `darkness`.
  shadow?: { offset: [number, number]; blur: number; darkness: number };
  // Gaussian grain, in levels of 255, new in every frame and every channel.
  grain?: number;
  // Auto-exposure: the whole picture's gain swings by up to `swing` (0.08 is 8 %) over `period` seconds.
  exposure?: { swing: number; period: number };
}

export interface ClipSpec {
  name: string;
  // What the clip is there to test, printed with the clip list.
  covers: string;
  width: number;
  height: number;
  // 10 fps takes every third source frame: people move three times further between frames.
  fps: 30 | 10;
  seconds: number;
  // The room's light falloff is drawn from `seed` (roomPicture); furniture is drawn into it.
  room: { seed?: number; furniture?: FurnitureSpec[] };
  // Back to front: a later walker passes in front of an earlier one.
  walkers: WalkerSpec[];
  camera: CameraSpec;
  light?: CameraLight;
  // The H.264 quality the clip is uploaded at: 12 (near lossless, a camera's file) unless given; a
  // phone's or a streaming service's copy is near 28.
  crf?: number;
}

export const frameCount = (clip: Pick<ClipSpec, 'fps' | 'seconds'>): number => Math.round(clip.fps * clip.seconds);
