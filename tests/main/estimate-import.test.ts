import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIpcHandlers, dispatchIpc } from '../../src-main/ipc/handlers';
import type { HostFiles } from '../../src-main/services/host-files';
import type { ApiClient } from '../../src-main/services/api-client';
import { importEstimateFile } from '../../src-main/services/estimate-import';
import { IMPORT_MESSAGES, MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { ESTIMATE_FILE_MAX_CHARS } from '@shared/rules/projects';

/** The quote export picked, read with progress and sent to estimates.importFile by main. */

const folder = mkdtempSync(join(tmpdir(), 'estimate-import-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const HEADER = 'Numéro de devis;Client;Libellé;Quantité;Prix unitaire HT;Date de signature';
const FILE = [HEADER, 'DEV-2026-0042;Laboratoires Sanofa;Post sponsorisé cardio;2;4 500,00;12/01/2026', 'DEV-2026-0043;Biogena;Bannière;1;800;'].join(
  '\r\n',
);

function fileOf(name: string, content: string | Buffer): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

/** An API that records what it was sent and answers `answer`. */
function fakeApi(answer: (csv: string) => unknown = () => ({ ok: true, data: { quotes: 2, lines: 2 } })) {
  const sent: { operation: string; csv: string }[] = [];
  const api = {
    async call(operation: string, input: { body: { csv: string } }) {
      sent.push({ operation, csv: input.body.csv });
      return answer(input.body.csv);
    },
  } as unknown as Pick<ApiClient, 'call'>;
  return { api, sent };
}

const picking = (path: string | null, options: { temporary?: boolean; fileName?: string } = {}): Pick<HostFiles, 'pickCsv'> => ({
  async pickCsv() {
    return path ? { path, fileName: options.fileName ?? path.split('/').pop()!, temporary: options.temporary ?? false } : null;
  },
});

const run = (api: Pick<ApiClient, 'call'>, files: Pick<HostFiles, 'pickCsv'>, signal = new AbortController().signal) => {
  const progress: { done: number; total: number | null }[] = [];
  return importEstimateFile(api, files, {}, { signal, onProgress: (event) => progress.push(event) }).then((result) => ({ result, progress }));
};

describe('quote export import job (main)', () => {
  it('reads the picked file with progress, sends its text to estimates.importFile and answers the counts', async () => {
    const path = fileOf('devis.csv', `\uFEFF${FILE}`);
    const { api, sent } = fakeApi();
    const { result, progress } = await run(api, picking(path));
    expect(result).toEqual({ ok: true, data: { fileName: 'devis.csv', quotes: 2, lines: 2 } });
    // The BOM is dropped by the decoder.
    expect(sent).toEqual([{ operation: 'estimates.importFile', csv: FILE }]);
    const size = Buffer.byteLength(`\uFEFF${FILE}`);
    expect(progress[0]).toEqual({ done: 0, total: size });
    expect(progress.at(-1)).toEqual({ done: size, total: size });
  });

  it('reads a Windows-1252 export (Excel in French) as text with its accents', async () => {
    const path = fileOf('devis-excel.csv', Buffer.from(FILE, 'latin1'));
    const { api, sent } = fakeApi();
    expect((await run(api, picking(path))).result.ok).toBe(true);
    expect(sent[0].csv).toBe(FILE);
  });

  it("passes the server's refusal naming the line and column through, and deletes the host's temporary copy", async () => {
    const refusal = PROJECT_MESSAGES.estimateRowInvalid(3, 'Quantité', PROJECT_MESSAGES.estimateNumberExpected);
    const path = fileOf('upload-1.tmp', FILE);
    const { api } = fakeApi(() => ({ ok: false, status: 400, errorMsg: refusal }));
    const { result } = await run(api, picking(path, { temporary: true, fileName: 'devis.csv' }));
    expect(result).toEqual({ ok: false, status: 400, errorMsg: refusal });
    expect(existsSync(path)).toBe(false);
  });

  it('refuses before sending: not a .csv, a binary file, a file past the character limit, an empty one', async () => {
    const { api, sent } = fakeApi();
    expect((await run(api, picking(fileOf('devis.xlsx', FILE)))).result).toMatchObject({ ok: false, errorMsg: MESSAGES.csvOnly });
    expect((await run(api, picking(fileOf('binaire.csv', Buffer.from([80, 75, 3, 4, 0, 0]))))).result).toMatchObject({
      ok: false,
      errorMsg: MESSAGES.csvUnreadable,
    });
    const long = fileOf('long.csv', `${HEADER}\n${'x'.repeat(ESTIMATE_FILE_MAX_CHARS)}`);
    expect((await run(api, picking(long))).result).toEqual({
      ok: false,
      status: 413,
      errorMsg: PROJECT_MESSAGES.estimateFileTooLong(ESTIMATE_FILE_MAX_CHARS),
    });
    expect((await run(api, picking(fileOf('vide.csv', '\n\n')))).result).toMatchObject({ ok: false, errorMsg: PROJECT_MESSAGES.estimateFileInvalid });
    expect(sent).toEqual([]);
  });

  it('answers null when the dialog is cancelled, without calling the server', async () => {
    const { api, sent } = fakeApi();
    expect((await run(api, picking(null))).result).toEqual({ ok: true, data: null });
    expect(sent).toEqual([]);
  });

  it("runs as the 'files:importEstimates' channel: progress events under the job id, a cancel answers 'Import annulé'", async () => {
    const path = fileOf('canal.csv', FILE);
    const events: unknown[] = [];
    const { api, sent } = fakeApi();
    const files = { ...picking(path) } as unknown as HostFiles;
    const handlers = createIpcHandlers({
      api: api as ApiClient,
      settings: {} as never,
      files,
      appInfo: () => ({}) as never,
      emit: (event, payload) => events.push({ event, payload }),
    });
    const jobId = crypto.randomUUID();
    expect(await dispatchIpc(handlers, 'files:importEstimates', { jobId })).toEqual({
      ok: true,
      data: { fileName: 'canal.csv', quotes: 2, lines: 2 },
    });
    expect(sent).toHaveLength(1);
    expect(events).toContainEqual({ event: 'files:progress', payload: { jobId, done: Buffer.byteLength(FILE), total: Buffer.byteLength(FILE) } });
    // An unknown field is a bad call: the channel takes the job id and the web host's upload only.
    expect((await dispatchIpc(handlers, 'files:importEstimates', { jobId, path: '/etc/passwd' })).ok).toBe(false);

    // Cancelled while the dialog is open: nothing is sent.
    let release!: () => void;
    const slowFiles = {
      async pickCsv() {
        await new Promise<void>((resolve) => (release = resolve));
        return { path, fileName: 'canal.csv', temporary: false };
      },
    } as unknown as HostFiles;
    const slow = createIpcHandlers({ api: api as ApiClient, settings: {} as never, files: slowFiles, appInfo: () => ({}) as never });
    const cancelledJob = crypto.randomUUID();
    const answer = dispatchIpc(slow, 'files:importEstimates', { jobId: cancelledJob });
    await expect.poll(() => release).toBeTypeOf('function');
    expect(await dispatchIpc(slow, 'files:cancel', { jobId: cancelledJob })).toEqual({ ok: true, data: { cancelled: true } });
    release();
    expect(await answer).toEqual({ ok: false, status: 0, errorMsg: IMPORT_MESSAGES.cancelled });
    expect(sent).toHaveLength(1);
  });
});
