import { contract, type MultipartSpec } from '@shared/contract';
import { IMPORT_MESSAGES as M } from '@shared/messages/imports';
import { CSV_ROOT, IMPORT_FIELDS } from '@shared/rules/imports';
import { checkKey } from '@shared/rules/storage';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { receiveFile } from '../../../storage/multipart';
import { readCsv, stopReading, type CsvShape } from '../csv-reader';

type FileHandlers = Pick<Handlers, 'imports.upload' | 'imports.files' | 'imports.data'>;

/** The storage key of a file of the CSV area, from its name (one segment, checked again). */
export function csvKey(filename: string): string {
  const checked = checkKey(`${CSV_ROOT}/${filename}`);
  if (!checked.ok || checked.key.split('/').length !== CSV_ROOT.split('/').length + 1) throw new HttpError(400, M.invalidFileName);
  return checked.key;
}

/** The headers (and shape) of a stored CSV file: its first line only. */
export async function csvHeaders(context: ServerContext, filename: string): Promise<CsvShape> {
  const file = await context.storage.get(csvKey(filename));
  if (!file) throw new HttpError(404, M.fileNotFound);
  const shape = await readCsv(file.body, { onHeaders: stopReading, onRow: stopReading });
  if (!shape) throw new HttpError(400, M.emptyFile);
  return shape;
}

/** The CSV area of the document storage: upload (streamed), list, and a page of a file's rows. */
export function fileHandlers(context: ServerContext): FileHandlers {
  const { storage } = context;
  return {
    'imports.upload': async ({ request }) =>
      receiveFile(request, contract['imports.upload'].multipart as MultipartSpec, async (file) => {
        const stored = await storage.put(csvKey(file.fileName), file.body, 'text/csv');
        return { name: file.fileName, size: stored.size, updatedAt: stored.updatedAt };
      }),

    'imports.files': async () => {
      const { files } = await storage.list(CSV_ROOT);
      return {
        files: files
          .filter((file) => /\.csv$/i.test(file.key))
          .map((file) => ({ name: file.key.split('/').pop()!, size: file.size, updatedAt: file.updatedAt }))
          .sort((a, b) => b.updatedAt - a.updatedAt || a.name.localeCompare(b.name)),
      };
    },

    'imports.data': async ({ query }) => {
      const file = await storage.get(csvKey(query.filename));
      if (!file) throw new HttpError(404, M.fileNotFound);
      const data: string[][] = [];
      let hasMore = false;
      const shape = await readCsv(file.body, {
        onRow: (cells, line) => {
          // Line 2 is the first data row.
          const index = line - 2;
          if (index < query.skip) return;
          if (data.length === query.max) {
            hasMore = true;
            stopReading();
          }
          data.push(cells);
        },
      });
      if (!shape) throw new HttpError(400, M.emptyFile);
      return { filename: query.filename, data, availableFields360: [...IMPORT_FIELDS], hasMore, ...shape };
    },
  };
}
