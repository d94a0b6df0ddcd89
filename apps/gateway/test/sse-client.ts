// A Server-Sent Events reader over fetch, for tests: the events of one stream until it closes.
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  // Resolves with every event once the server closes the stream (or the timeout aborts it).
  events: Promise<SseMessage[]>;
  // Comment lines seen (heartbeats).
  comments: () => number;
  // Called with each event as it arrives.
  onEvent?: (event: SseMessage) => void;
}

export async function openSse(url: string, headers: Record<string, string>, timeoutMs = 60_000, onEvent?: (event: SseMessage) => void): Promise<SseStream> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: AbortSignal.timeout(timeoutMs) });
  let comments = 0;
  const read = async (): Promise<SseMessage[]> => {
    const events: SseMessage[] = [];
    if (!response.body) return events;
    const decoder = new TextDecoder();
    let buffer = '';
    let current: Partial<SseMessage> & { data?: string } = {};
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (current.data !== undefined) {
            const event: SseMessage = { event: current.event ?? 'message', data: current.data, ...(current.id !== undefined && { id: current.id }) };
            events.push(event);
            onEvent?.(event);
          }
          current = {};
        } else if (line.startsWith(':')) comments++;
        else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') current.data = current.data === undefined ? value : `${current.data}\n${value}`;
          else if (field === 'event') current.event = value;
          else if (field === 'id') current.id = value;
        }
      }
    }
    return events;
  };
  return { status: response.status, headers: response.headers, events: read(), comments: () => comments };
}
