/** Server-Sent Events, as the admin API's request log streams them (`requests.follow`). */

/** Reads Server-Sent Events from a streamed body: each event's name, id and data. */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string; id?: string; data: string }, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = text;
          else if (field === 'id') id = text;
          else if (field === 'data') data.push(text);
        }
        if (data.length > 0) yield { event, ...(id !== undefined ? { id } : {}), data: data.join('\n') };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
