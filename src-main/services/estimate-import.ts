import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { IpcResult } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { ESTIMATE_FILE_MAX_CHARS } from '@shared/rules/projects';
import type { HostFiles } from './host-files';
import type { ApiClient } from './api-client';
import { failure } from './failures';

/** What an import of the quote export answers: the file's name and the server's count of quotes and lines. */
export interface EstimateFileReport {
  fileName: string;
  quotes: number;
  lines: number;
}

type Progress = { done: number; total: number | null };

/** A UTF-8 character is at most 4 bytes: a file past this many bytes cannot fit the server's character limit. */
const MAX_FILE_BYTES = ESTIMATE_FILE_MAX_CHARS * 4;

/** UTF-8 (its BOM dropped by the server), else Windows-1252 as Excel in French saves a CSV. */
function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The invoicing tool's quote export to POST /estimates/import (docs/projects.md, Quotes): the file picked (native dialog,
 * or the page's upload on the web host), read from disk with progress events (bytes read of the file's size, at
 * most one a percent), checked against the contract's limit before it is sent, then sent as the operation's
 * `csv`. The server reads it all before writing anything: a bad cell comes back as its French 400 naming the line
 * and column ('Fichier de devis invalide (ligne 7) — Quantité : nombre attendu'), passed through as is. A host's
 * temporary copy is deleted whatever happens. Null when the dialog was cancelled.
 */
export async function importEstimateFile(
  api: Pick<ApiClient, 'call'>,
  files: Pick<HostFiles, 'pickCsv'>,
  request: { uploadId?: string },
  options: { signal: AbortSignal; onProgress: (progress: Progress) => void },
): Promise<IpcResult<EstimateFileReport | null>> {
  const picked = await files.pickCsv({ uploadId: request.uploadId });
  if (!picked) return { ok: true, data: null };
  try {
    if (!/\.csv$/i.test(picked.fileName)) return failure(400, MESSAGES.csvOnly);
    const { size } = await stat(picked.path);
    if (size > MAX_FILE_BYTES) return failure(413, PROJECT_MESSAGES.estimateFileTooLong(ESTIMATE_FILE_MAX_CHARS));
    const chunks: Buffer[] = [];
    let done = 0;
    let reported = -1;
    const step = Math.max(1, Math.floor(size / 100));
    options.onProgress({ done: 0, total: size });
    for await (const chunk of createReadStream(picked.path, { highWaterMark: 256 * 1024, signal: options.signal })) {
      const bytes = chunk as Buffer;
      // Text never holds NUL bytes: a spreadsheet (or UTF-16) renamed .csv.
      if (bytes.includes(0)) return failure(400, MESSAGES.csvUnreadable);
      chunks.push(bytes);
      done += bytes.length;
      if (done - reported >= step) {
        reported = done;
        options.onProgress({ done, total: size });
      }
    }
    const csv = decode(Buffer.concat(chunks));
    if (csv.length > ESTIMATE_FILE_MAX_CHARS) return failure(413, PROJECT_MESSAGES.estimateFileTooLong(ESTIMATE_FILE_MAX_CHARS));
    if (!csv.trim()) return failure(400, PROJECT_MESSAGES.estimateFileInvalid);
    options.signal.throwIfAborted();
    const answer = await api.call('estimates.importFile', { body: { csv } });
    if (!answer.ok) return answer;
    options.onProgress({ done: size, total: size });
    return { ok: true, data: { fileName: picked.fileName, quotes: answer.data.quotes, lines: answer.data.lines } };
  } finally {
    if (picked.temporary) await rm(picked.path, { force: true });
  }
}
