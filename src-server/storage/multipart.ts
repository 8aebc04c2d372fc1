import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { MultipartSpec } from '@shared/contract';
import { MESSAGES, describeIssue } from '@shared/messages';
import { STORAGE_MESSAGES, formatNotAllowed, tooLargeFor } from '@shared/messages/storage';
import { contentMatches, extensionOf, fileNameSegment } from '@shared/rules/storage';
import type { ServerContext } from '../context';
import { HttpError } from '../errors';
import { peek, servedType, type Peeked } from './sniff';

/** Idle time after which an upload is given up when the server's config says nothing (ServerConfig). */
const UPLOAD_IDLE_TIMEOUT_MS = 60_000;
const ignore = () => undefined;

/** One file of a multipart request, checked, on its way: what a store callback writes somewhere. */
export interface IncomingFile<Fields> {
  fields: Fields;
  /** The file name as one safe key segment. */
  fileName: string;
  extension: string;
  /** The type its bytes say (what it will be served as). */
  contentType: string;
  /** Its first bytes (up to SNIFF_BYTES), as read to learn its type: a header to check before storing. */
  head: Uint8Array;
  /** The bytes, streamed; reading past the size limit fails the stream. */
  body: Readable;
}

class TooLargeError extends HttpError {
  constructor(maxBytes: number) {
    super(413, tooLargeFor(maxBytes));
  }
}

/**
 * Reads a multipart/form-data request as the contract's `multipart` spec says: text fields first (checked by its
 * schema), then one file, whose extension must be allowed and whose first bytes must match it, streamed to
 * `store` — never held whole. Past `maxFileBytes` the stream fails and `store` must leave nothing behind.
 * The request is always read to its end before answering, so the client sees the answer, not a reset.
 */
export async function receiveFile<Fields, Result>(
  request: FastifyRequest,
  spec: MultipartSpec,
  store: (file: IncomingFile<Fields>) => Promise<Result>,
): Promise<Result> {
  const [result] = await receiveFiles(request, { ...spec, maxFiles: 1 }, store);
  return result;
}

/**
 * The same for a request of up to `spec.maxFiles` files (file0..n), each checked and handed to `store` in turn.
 * Answers the results in order; when one file fails, the results already stored are handed to `undo` (each
 * caller removes what its store wrote) and the failure is thrown.
 */
export async function receiveFiles<Fields, Result>(
  request: FastifyRequest,
  spec: MultipartSpec,
  store: (file: IncomingFile<Fields>) => Promise<Result>,
  undo: (stored: Result[]) => Promise<void> = async () => undefined,
): Promise<Result[]> {
  if (
    !String(request.headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('multipart/form-data')
  ) {
    throw new HttpError(415, STORAGE_MESSAGES.multipartExpected);
  }
  const maxFiles = spec.maxFiles ?? 1;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      // busboy truncates a file that reaches its limit: one byte more lets exactly maxFileBytes through.
      limits: { files: maxFiles, fields: 20, fieldSize: 16 * 1024, fileSize: spec.maxFileBytes + 1, parts: 23 + maxFiles },
      defParamCharset: 'utf8',
    });
  } catch {
    throw new HttpError(400, STORAGE_MESSAGES.multipartExpected);
  }
  const rawFields: Record<string, string> = {};
  const stored: Result[] = [];
  let failed = false;
  let outcome: Promise<void> | null = null;

  let timedOut = false;
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      rawFields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      // busboy fails the file stream when the request ends early: never an uncaught 'error' (the process would stop).
      stream.on('error', ignore);
      if (failed) return void stream.resume();
      const previous = outcome ?? Promise.resolve();
      outcome = previous.then(async () => {
        if (failed) return void stream.resume();
        try {
          stored.push(await checkAndStore(spec, rawFields, stream, info.filename, store));
        } catch (error) {
          failed = true;
          throw error;
        }
      });
      // Observed here so that a refusal before 'close' is not an unhandled rejection; awaited below.
      outcome.catch(() => undefined);
    });
    parser.on('close', resolve);
    parser.on('error', () => reject(timedOut ? new HttpError(408, MESSAGES.requestTimeout) : new HttpError(400, STORAGE_MESSAGES.multipartExpected)));
  });
  const stop = (reason: string) => parser.destroy(new Error(reason));
  request.raw.on('aborted', () => stop('aborted'));
  request.raw.on('error', () => stop('aborted'));
  // A client that stops sending, or a reader of ours that stopped reading, is not waited for forever.
  // On the request, not its socket: Node's server destroys a socket whose timeout nobody on the request hears.
  const idle = (request.server as { context?: ServerContext }).context?.config.uploadIdleTimeoutMs ?? UPLOAD_IDLE_TIMEOUT_MS;
  const onIdle = () => {
    timedOut = true;
    stop('timeout');
  };
  request.raw.setTimeout(idle, onIdle);
  // The timer is about the client's bytes: once the body has ended, the work after it (a large file applied) may
  // take as long as it needs and still answers.
  const bodyEnded = () => {
    request.raw.setTimeout(0);
    request.raw.off('timeout', onIdle);
  };
  request.raw.once('end', bodyEnded);
  // Not stream/promises' pipeline: on a malformed form it would destroy the request, and the answer with it; the
  // request's failures are forwarded to the parser by the listeners above, and every file stream has one.
  request.raw.pipe(parser);
  try {
    await finished;
    if (!outcome) throw new HttpError(400, STORAGE_MESSAGES.fileMissing);
    await outcome;
  } catch (error) {
    if (outcome) await (outcome as Promise<void>).catch(() => undefined);
    if (stored.length) await undo(stored);
    throw timedOut ? new HttpError(408, MESSAGES.requestTimeout) : error;
  } finally {
    request.raw.off('end', bodyEnded);
    bodyEnded();
  }
  return stored;
}

async function checkAndStore<Fields, Result>(
  spec: MultipartSpec,
  rawFields: Record<string, string>,
  stream: Readable,
  filename: string | undefined,
  store: (file: IncomingFile<Fields>) => Promise<Result>,
): Promise<Result> {
  let peeked: Peeked | undefined;
  try {
    const parsed = spec.fields.safeParse(rawFields);
    if (!parsed.success) {
      const issue = describeIssue(parsed.error.issues[0] as never, 'body');
      throw new HttpError(400, issue.errorMsg, {}, issue.field);
    }
    const fileName = fileNameSegment(filename ?? '');
    if (!fileName) throw new HttpError(400, STORAGE_MESSAGES.fileMissing);
    const extension = extensionOf(fileName);
    if (!spec.formats.includes(extension)) throw new HttpError(400, formatNotAllowed(spec.formats));
    peeked = await peek(stream, {
      afterEnd: () => {
        if ((stream as unknown as { truncated?: boolean }).truncated) throw new TooLargeError(spec.maxFileBytes);
      },
      drainOnStop: true,
    });
    const { head, sniffed, body } = peeked;
    if (!contentMatches(extension, sniffed?.ext, head)) throw new HttpError(400, STORAGE_MESSAGES.invalidFileType);
    return await store({ fields: parsed.data as Fields, fileName, extension, contentType: servedType(head, sniffed), head, body });
  } catch (error) {
    // Whatever went wrong, the rest of the file is read and dropped: busboy waits for it, and the answer must
    // reach the client. Once peek holds the stream, only its reader can read it (resume() would not).
    if (peeked) {
      peeked.body.destroy();
      await peeked.drain();
    } else stream.resume();
    if ((stream as unknown as { truncated?: boolean }).truncated) throw new TooLargeError(spec.maxFileBytes);
    throw error;
  }
}
