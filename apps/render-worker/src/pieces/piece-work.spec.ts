import { STORED_V1_PAYLOADS } from '@vj/contracts/src/messaging/__fixtures__/stored-v1-payloads';
import { parsePieceWork } from './piece-work';

// The pieces' stored payloads name objects under another prefix than the job's own: re-homed here.
const own = `results/${STORED_V1_PAYLOADS.workSegment.account_id}/${STORED_V1_PAYLOADS.workSegment.job_id}/pieces/`;
const segment = { ...STORED_V1_PAYLOADS.workSegment, input_key: `${own}input`, plate_key: `${own}plate-1` };
const output = STORED_V1_PAYLOADS.workJoin.segments[0]!;
const joinWork = { ...STORED_V1_PAYLOADS.workJoin, input_key: `${own}input`, segments: [{ ...output, files: [{ ...output.files[0]!, object_key: `${own}0/transparent.webm` }] }] };

describe("a piece's work message", () => {
  it('is taken as it is when every object it names is one of its own job\'s pieces', () => {
    expect(parsePieceWork('segment', structuredClone(segment))).toEqual(segment);
    expect(parsePieceWork('segment', { ...segment, plate_key: null })).toMatchObject({ plate_key: null });
    expect(parsePieceWork('join', structuredClone(joinWork))).toEqual(joinWork);
    const keeping = { ...joinWork, segments: [{ ...joinWork.segments[0]!, kept_matte_key: `${own}0/kept-matte.mkv` }] };
    expect(parsePieceWork('join', structuredClone(keeping))).toEqual(keeping);
    expect(parsePieceWork('join', { ...joinWork, segments: [{ ...joinWork.segments[0]!, kept_matte_key: null }] })).toMatchObject({ segments: [{ kept_matte_key: null }] });
    expect(parsePieceWork('pass', { ...STORED_V1_PAYLOADS.workPass, input_key: `${own}input` })).toMatchObject({ segments: STORED_V1_PAYLOADS.workPass.segments });
  });

  it.each<[string, 'segment' | 'join' | 'pass', unknown, string]>([
    ['another account\'s input', 'segment', { ...segment, input_key: 'uploads/someone-else/video' }, 'input_key is not one of the job\'s pieces'],
    ['a way out of its prefix', 'segment', { ...segment, input_key: `${own}../../other/pieces/input` }, 'input_key is not one of the job\'s pieces'],
    ['another job\'s plate', 'segment', { ...segment, plate_key: 'results/a/b/pieces/plate-1' }, 'segment or plate_key is missing'],
    ['a segment with no frames', 'segment', { ...segment, segment: { ...segment.segment, to: segment.segment.from } }, 'segment or plate_key is missing'],
    ['a join of another job\'s files', 'join', { ...joinWork, segments: [output] }, 'segments are missing'],
    ['a join of another job\'s kept matte', 'join', { ...joinWork, segments: [{ ...joinWork.segments[0]!, kept_matte_key: 'results/a/b/pieces/0/kept-matte.mkv' }] }, 'segments are missing'],
    ['a kept matte out of its prefix', 'join', { ...joinWork, segments: [{ ...joinWork.segments[0]!, kept_matte_key: `${own}../../x/kept-matte.mkv` }] }, 'segments are missing'],
    ['a kept matte that is no key', 'join', { ...joinWork, segments: [{ ...joinWork.segments[0]!, kept_matte_key: 42 }] }, 'segments are missing'],
    ['a pass without segments', 'pass', { ...STORED_V1_PAYLOADS.workPass, input_key: `${own}input`, segments: [] }, 'segments are missing'],
    ['another job type', 'segment', { ...segment, job_type: 'clean-audio-video' }, 'job_type is not video-background-removal'],
    ['no frame count', 'segment', { ...segment, frames: 0 }, 'frames or fps is missing'],
    ['nothing at all', 'join', null, 'version is not 1'],
  ])('is refused for good with %s', (_, piece, payload, problem) => {
    expect(() => parsePieceWork(piece, payload)).toThrow(problem);
  });
});
