import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface Progress {
  stage: string;
  progress: number;
}

export type JobState = { job_id: string; status: string };

const FINAL_EVENTS = new Set(['job.completed', 'job.failed', 'job.cancelled']);

export interface FollowOutcome<J> {
  // The final job, or null when the stream ended without one (a proxy cut it: poll instead).
  job: J | null;
  lastEventId: string | null;
}

// Reads a job's Server-Sent Events stream until its final event, reporting progress on the way.
export async function readJobEvents<J extends JobState>(response: Response, onProgress?: (progress: Progress) => void): Promise<FollowOutcome<J>> {
  let final: J | null = null;
  let lastEventId: string | null = null;
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (event.id) lastEventId = event.id;
      if (event.event === 'job.progress') {
        const { stage, progress } = JSON.parse(event.data) as Progress;
        onProgress?.({ stage, progress });
      } else if (event.event && FINAL_EVENTS.has(event.event)) {
        final = JSON.parse(event.data) as J;
      }
    },
  });
  if (!response.body) return { job: null, lastEventId };
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (final) break;
  }
  return { job: final, lastEventId };
}
