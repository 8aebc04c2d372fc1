import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';

/** Enough bytes for every signature file-type knows (its own sample size). */
export const SNIFF_BYTES = 4100;

export interface Peeked {
  head: Uint8Array;
  /** file-type's verdict on the head: extension and MIME type, undefined when it knows none. */
  sniffed: { ext: string; mime: string } | undefined;
  /** The whole stream again, head first: nothing read is lost, nothing more is held. */
  body: Readable;
}

/**
 * Reads the first bytes of a stream to learn its type from them (never from the name), then hands the whole
 * stream on. Only the head is held; the rest flows through with back-pressure. `afterEnd` runs once the source
 * is exhausted and may throw (a size limit hit), failing whoever reads the body.
 */
export async function peek(source: Readable, afterEnd?: () => void): Promise<Peeked> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const first = Buffer.concat(chunks);
  const head = first.subarray(0, SNIFF_BYTES);
  const sniffed = await fileTypeFromBuffer(head);
  async function* all() {
    if (first.length) yield first;
    if (!done) {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        yield next.value;
      }
    }
    afterEnd?.();
  }
  const body = Readable.from(all(), { objectMode: false });
  body.on('close', () => {
    // A consumer that stops early releases the source too.
    if (!done) void iterator.return?.();
  });
  return { head, sniffed, body };
}

/** The type a stored file is served with, from its bytes: a known signature, an SVG, plain text, or bytes. */
export function servedType(head: Uint8Array, sniffed: Peeked['sniffed']): string {
  if (sniffed && sniffed.ext !== 'xml') return sniffed.mime;
  if (head.includes(0)) return 'application/octet-stream';
  const text = new TextDecoder().decode(head);
  if (/<svg[\s>]/i.test(text)) return 'image/svg+xml';
  return 'text/plain; charset=utf-8';
}
