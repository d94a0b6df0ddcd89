import { DEFAULT_PLATE, type PlateSettings, type PlateSnapshot } from './background-plate';
import { removeBackground, type RemoveBackgroundRequest } from './remove-background';

// The pass that carries the background plate across a long video's segments (decision 0100): the
// pipeline over one frame in five, every row of the plate learning on each, a pixel trusted after one
// frame of background. Each segment begins from what the pass had learned before its first matted
// frame, and so knows the room behind someone who stood there since before the segment.
export const PLATE_PASS: { every: number; plate: Partial<PlateSettings> & { knownAfter: number } } = {
  every: 5,
  plate: { knownAfter: 1, everyRow: true },
};

export type PlatePassRequest = Omit<
  RemoveBackgroundRequest,
  'segment' | 'pass' | 'onPlate' | 'plateSeed' | 'plateSettings' | 'firstFrame' | 'keepMatteAt' | 'fromMatte' | 'onMatte' | 'tracking'
> & {
  // Each segment's first matted frame (from 0 in the whole video); the first segment's, 0, needs none.
  segmentStarts: readonly number[];
  // Called with each later segment's plate as soon as the pass has gone past its start, so that a
  // segment need not wait for the whole pass; it must not block (store the plate in the background).
  onPlate: (start: number, plate: PlateSnapshot) => void;
  // PLATE_PASS unless given (the bench tries others).
  every?: number;
  plate?: Partial<PlateSettings> & { knownAfter: number };
};

export class PlatePassError extends Error {
  constructor(readonly missing: readonly number[]) {
    super(`the plate pass ended without a plate for the segments starting at frames ${missing.join(', ')}`);
    this.name = 'PlatePassError';
  }
}

// Gives each segment start past 0 what the pass learned from its frames before that one, and throws
// PlatePassError (ours) where the pass ended without one (the video shorter than its index said).
export async function platePass(request: PlatePassRequest): Promise<void> {
  const { segmentStarts, onPlate, every = PLATE_PASS.every, plate = PLATE_PASS.plate, ...rest } = request;
  // Pass frames are numbered in the whole video from 1: 1, 1 + every, ...; the last one at or before
  // frame `start` from 1 is the last the segment's first matted frame (`start` from 0) comes after.
  const lastSeenBefore = (start: number): number => Math.floor((start - 1) / every) * every + 1;
  const starts = segmentStarts.filter((start) => start > 0);
  const handed = new Set<number>();
  await removeBackground({
    ...rest,
    // The plate is the tracking's: a pass without it would learn nothing.
    tracking: true,
    pass: { every },
    plateSettings: plate,
    onPlate: {
      afterFrames: starts.map(lastSeenBefore),
      take: (frame, snapshot) => {
        for (const start of starts.filter((start) => lastSeenBefore(start) === frame)) {
          handed.add(start);
          onPlate(start, handedOver(snapshot, plate.knownAfter));
        }
      },
    },
  });
  const missing = starts.filter((start) => !handed.has(start));
  if (missing.length > 0) throw new PlatePassError(missing);
}

// A segment's plate counts frames its own way, with DEFAULT_PLATE's settings: what the pass trusts
// arrives trusted.
function handedOver(snapshot: PlateSnapshot, passKnownAfter: number): PlateSnapshot {
  return { ...snapshot, seen: snapshot.seen.map((count) => (count >= passKnownAfter ? Math.max(count, DEFAULT_PLATE.knownAfter) : count)) };
}
