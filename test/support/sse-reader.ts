// A plain reader of Server-Sent Events over Node's fetch, for tests: what a browser's EventSource does with the bytes
// (event name, id, data lines), without its reconnection.

export interface ServerSentEvent {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
}

export interface EventStreamReader {
  readonly response: Response;
  readonly events: ServerSentEvent[];
  /** Resolves when the stream ends (the server closed it, or `close`), never rejects. */
  readonly ended: Promise<void>;
  /** Calls `listener` for every event from now on. */
  onEvent(listener: (event: ServerSentEvent) => void): void;
  close(): void;
}

/** Opens `url` and reads its events as they come; throws when the answer is not a 200 event stream. */
export async function readEventStream(url: string, init: RequestInit = {}): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  if (response.status !== 200 || response.body === null)
    throw new Error(`No event stream from ${url}: HTTP ${String(response.status)} ${await response.text()}`);
  const events: ServerSentEvent[] = [];
  const listeners: ((event: ServerSentEvent) => void)[] = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = parseEvent(block);
          if (event === undefined) continue;
          events.push(event);
          for (const listener of listeners) listener(event);
        }
      }
    } catch {
      // Aborted, or the connection was cut: the stream ended.
    }
  })();
  return {
    response,
    events,
    ended,
    onEvent: (listener) => listeners.push(listener),
    close: () => {
      controller.abort();
    },
  };
}

function parseEvent(block: string): ServerSentEvent | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { event, id, data: data.join('\n') };
}
