import { rm, stat } from 'node:fs/promises';
import { buildPath, contract, type Operation } from '@shared/contract';
import type { IpcResult, UploadOperationId } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { STORAGE_MESSAGES, formatNotAllowed, tooLargeFor } from '@shared/messages/storage';
import { FOLDER_MARKER, extensionOf } from '@shared/rules/storage';
import type { HostFiles } from '../ipc/handlers';
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

/**
 * One upload from the user's disk to an upload operation: the file picked (dialog or web upload), then checked
 * against the operation's contract — fields, extension, size — before a byte leaves, streamed with progress, and
 * the answer checked against the response schema. A host's temporary copy is deleted whatever happens.
 */
export async function uploadThroughApi(
  api: ApiClient,
  files: Pick<HostFiles, 'pickUpload'>,
  request: UploadRequest,
  options: { signal: AbortSignal; onProgress: (progress: { done: number; total: number | null }) => void },
): Promise<IpcResult<{ fileName: string; answer: unknown } | null>> {
  const operation = contract[request.operation] as Operation;
  const spec = operation.multipart!;
  const fields = spec.fields.safeParse(request.fields);
  if (!fields.success) return validationFailure(fields.error.issues, 'body');
  let path: string;
  try {
    path = buildPath(operation.path, request.params);
  } catch (error) {
    return failure(400, (error as Error).message);
  }
  const textFields = Object.fromEntries(Object.entries(fields.data as Record<string, unknown>).map(([key, value]) => [key, String(value)]));
  const send = async (body: Awaited<ReturnType<typeof multipartFromFile>>, fileName: string): Promise<IpcResult<{ fileName: string; answer: unknown }>> => {
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
 * Bytes the page made (a preview capture) sent to an upload operation: the same checks as a picked file —
 * fields, extension, the operation's size limit — then one multipart request, its answer checked.
 */
export async function uploadBytesThroughApi(
  api: ApiClient,
  request: { operation: UploadOperationId; params?: Record<string, string | number>; fields: Record<string, string>; fileName: string; bytes: Uint8Array },
  options: { signal: AbortSignal; onProgress: (progress: { done: number; total: number | null }) => void },
): Promise<IpcResult<{ fileName: string; answer: unknown }>> {
  const operation = contract[request.operation] as Operation;
  const spec = operation.multipart!;
  const fields = spec.fields.safeParse(request.fields);
  if (!fields.success) return validationFailure(fields.error.issues, 'body');
  let path: string;
  try {
    path = buildPath(operation.path, request.params);
  } catch (error) {
    return failure(400, (error as Error).message);
  }
  if (!spec.formats.includes(extensionOf(request.fileName))) return failure(400, formatNotAllowed(spec.formats));
  if (request.bytes.length > spec.maxFileBytes) return failure(413, tooLargeFor(spec.maxFileBytes));
  const textFields = Object.fromEntries(Object.entries(fields.data as Record<string, unknown>).map(([key, value]) => [key, String(value)]));
  const body = await multipartFromFile({ fileName: request.fileName, bytes: request.bytes }, textFields, { signal: options.signal, onProgress: throttled(options.onProgress) });
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
  return { ok: true, data: { fileName: request.fileName, answer: checked.data } };
}
