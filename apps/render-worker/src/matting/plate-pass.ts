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
  'segment' | 'pass' | 'onPlate' | 'plateSeed' | 'plateSettings' | 'firstFrame' | 'keepMatteAt' | 'fromMatte' | 'onMatte'
> & {
  // Each segment's first matted frame (from 0 in the whole video); the first segment's, 0, needs none.
  segmentStarts: readonly number[];
  // PLATE_PASS unless given (the bench tries others).
  every?: number;
  plate?: Partial<PlateSettings> & { knownAfter: number };
};

// The plate for each segment start past 0: what the pass learned from its frames before that one.
export async function platePass(request: PlatePassRequest): Promise<Map<number, PlateSnapshot>> {
  const { segmentStarts, every = PLATE_PASS.every, plate = PLATE_PASS.plate, ...rest } = request;
  // Pass frames are numbered in the whole video from 1: 1, 1 + every, ...; the last one at or before
  // frame `start` from 1 is the last the segment's first matted frame (`start` from 0) comes after.
  const lastSeenBefore = (start: number): number => Math.floor((start - 1) / every) * every + 1;
  const starts = segmentStarts.filter((start) => start > 0);
  const plates = new Map<number, PlateSnapshot>();
  await removeBackground({
    ...rest,
    pass: { every },
    plateSettings: plate,
    onPlate: {
      afterFrames: starts.map(lastSeenBefore),
      take: (frame, snapshot) => starts.filter((start) => lastSeenBefore(start) === frame).forEach((start) => plates.set(start, handedOver(snapshot, plate.knownAfter))),
    },
  });
  return plates;
}

// A segment's plate counts frames its own way: what the pass trusts arrives trusted.
function handedOver(snapshot: PlateSnapshot, passKnownAfter: number): PlateSnapshot {
  return { ...snapshot, seen: snapshot.seen.map((count) => (count >= passKnownAfter ? Math.max(count, DEFAULT_PLATE.knownAfter) : count)) };
}
