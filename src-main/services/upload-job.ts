import { rm, stat } from 'node:fs/promises';
import { buildPath, contract, type Operation } from '@shared/contract';
import { PAGE_UPLOAD_MAX_BYTES, type IpcResult, type UploadOperationId } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { STORAGE_MESSAGES, formatNotAllowed, tooLargeFor } from '@shared/messages/storage';
import { FOLDER_MARKER, extensionOf } from '@shared/rules/storage';
import type { HostFiles } from './host-files';
import type { ApiClient } from './api-client';
import { failure, validationFailure } from './failures';
import { multipartFromFile } from './upload';

export interface UploadRequest {
  operation: UploadOperationId;
  params?: Record<string, string | number>;
  fields: Record<string, string>;
  uploadId?: string;
  folderMarker?: boolean;
}

/** Progress events are spaced out: at most one per percent of the file (and the last one). */
function throttled(onProgress: (progress: { done: number; total: number | null }) => void) {
  let last = -1;
  return (done: number, total: number) => {
    const step = Math.max(1, Math.floor(total / 100));
    if (done === total || done - last >= step || last < 0) {
      last = done;
      onProgress({ done, total });
    }
  };
}

type UploadOptions = { signal: AbortSignal; onProgress: (progress: { done: number; total: number | null }) => void };
type Sender = (body: Awaited<ReturnType<typeof multipartFromFile>>, fileName: string) => Promise<IpcResult<{ fileName: string; answer: unknown }>>;

/** The operation's fields and path checked, and a sender of one multipart body to it (answer checked); or a failure. */
function prepare(api: ApiClient, request: Omit<UploadRequest, 'uploadId' | 'folderMarker'>, options: UploadOptions) {
  const operation = contract[request.operation] as Operation;
  const spec = operation.multipart!;
  const fields = spec.fields.safeParse(request.fields);
  if (!fields.success) return { failure: validationFailure(fields.error.issues, 'body') } as const;
  let path: string;
  try {
    path = buildPath(operation.path, request.params);
  } catch (error) {
    return { failure: failure(400, (error as Error).message) } as const;
  }
  const textFields = Object.fromEntries(Object.entries(fields.data as Record<string, unknown>).map(([key, value]) => [key, String(value)]));
  const send = async (
    body: Awaited<ReturnType<typeof multipartFromFile>>,
    fileName: string,
  ): Promise<IpcResult<{ fileName: string; answer: unknown }>> => {
    let result: IpcResult<unknown>;
    try {
      result = await api.uploadStream(operation.method, path, body, options.signal);
    } catch (error) {
      if (options.signal.aborted) return failure(0, STORAGE_MESSAGES.uploadCancelled);
      throw error;
    }
    if (!result.ok) return result;
    const checked = operation.response.safeParse(result.data);
    if (!checked.success) return failure(502, MESSAGES.unexpectedAnswer);
    return { ok: true, data: { fileName, answer: checked.data } };
  };
  return { failure: null, spec, textFields, send: send as Sender } as const;
}

/**
 * One upload from the user's disk to an upload operation: the file picked (dialog or web upload), then checked
 * against the operation's contract — fields, extension, size — before a byte leaves, streamed with progress, and
 * the answer checked against the response schema. A host's temporary copy is deleted whatever happens.
 */
export async function uploadThroughApi(
  api: ApiClient,
  files: Pick<HostFiles, 'pickUpload'>,
  request: UploadRequest,
  options: UploadOptions,
): Promise<IpcResult<{ fileName: string; answer: unknown } | null>> {
  const prepared = prepare(api, request, options);
  if (prepared.failure) return prepared.failure;
  const { spec, textFields, send } = prepared;
  if (request.folderMarker) return send(await multipartFromFile({ fileName: FOLDER_MARKER, bytes: new Uint8Array() }, textFields), FOLDER_MARKER);
  const picked = await files.pickUpload({ uploadId: request.uploadId, formats: spec.formats });
  if (!picked) return { ok: true, data: null };
  try {
    if (!spec.formats.includes(extensionOf(picked.fileName))) return failure(400, formatNotAllowed(spec.formats));
    const { size } = await stat(picked.path);
    if (size > spec.maxFileBytes) return failure(413, tooLargeFor(spec.maxFileBytes));
    const body = await multipartFromFile({ path: picked.path, fileName: picked.fileName }, textFields, {
      signal: options.signal,
      onProgress: throttled(options.onProgress),
    });
    return await send(body, picked.fileName);
  } finally {
    if (picked.temporary) await rm(picked.path, { force: true });
  }
}

/**
 * Bytes made by the page (the image editor's crop) to an upload operation: the same checks as a file from disk
 * (fields, extension, the operation's size limit and the page's 10 MB), the same progress and cancel.
 */
export async function uploadBytesThroughApi(
  api: ApiClient,
  request: Omit<UploadRequest, 'uploadId' | 'folderMarker'> & { fileName: string; bytes: Uint8Array },
  options: UploadOptions,
): Promise<IpcResult<{ fileName: string; answer: unknown }>> {
  const prepared = prepare(api, request, options);
  if (prepared.failure) return prepared.failure;
  const { spec, textFields, send } = prepared;
  if (!spec.formats.includes(extensionOf(request.fileName))) return failure(400, formatNotAllowed(spec.formats));
  const limit = Math.min(spec.maxFileBytes, PAGE_UPLOAD_MAX_BYTES);
  if (request.bytes.length > limit) return failure(413, tooLargeFor(limit));
  const body = await multipartFromFile({ bytes: request.bytes, fileName: request.fileName }, textFields, {
    signal: options.signal,
    onProgress: throttled(options.onProgress),
  });
  return send(body, request.fileName);
}
