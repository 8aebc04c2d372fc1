import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { MultipartSpec } from '@shared/contract';
import { describeIssue } from '@shared/messages';
import { STORAGE_MESSAGES, formatNotAllowed, tooLargeFor } from '@shared/messages/storage';
import { contentMatches, extensionOf, fileNameSegment } from '@shared/rules/storage';
import { HttpError } from '../errors';
import { peek, servedType } from './sniff';

/** One file of a multipart request, checked, on its way: what a store callback writes somewhere. */
export interface IncomingFile<Fields> {
  fields: Fields;
  /** The file name as one safe key segment. */
  fileName: string;
  extension: string;
  /** The type its bytes say (what it will be served as). */
  contentType: string;
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

  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      rawFields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
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
    parser.on('error', () => reject(new HttpError(400, STORAGE_MESSAGES.multipartExpected)));
  });
  request.raw.on('aborted', () => parser.destroy(new Error('aborted')));
  request.raw.pipe(parser);
  try {
    await finished;
    if (!outcome) throw new HttpError(400, STORAGE_MESSAGES.fileMissing);
    await outcome;
  } catch (error) {
    if (outcome) await (outcome as Promise<void>).catch(() => undefined);
    if (stored.length) await undo(stored);
    throw error;
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
    const { head, sniffed, body } = await peek(stream, () => {
      if ((stream as unknown as { truncated?: boolean }).truncated) throw new TooLargeError(spec.maxFileBytes);
    });
    if (!contentMatches(extension, sniffed?.ext, head)) {
      body.destroy();
      throw new HttpError(400, STORAGE_MESSAGES.invalidFileType);
    }
    return await store({ fields: parsed.data as Fields, fileName, extension, contentType: servedType(head, sniffed), body });
  } catch (error) {
    // Whatever went wrong, the rest of the file is read and dropped: the answer must reach the client.
    stream.resume();
    if ((stream as unknown as { truncated?: boolean }).truncated) throw new TooLargeError(spec.maxFileBytes);
    throw error;
  }
}
