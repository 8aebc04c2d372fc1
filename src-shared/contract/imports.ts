import { z } from 'zod';
import { access } from '../roles';
import { CSV_DATA_MAX_ROWS, CSV_FORMATS, CSV_MAX_BYTES, CSV_PREVIEW_PAGE_SIZE, IMPORT_FIELDS } from '../rules/imports';
import { defineOperation } from './define';
import { idParam, shortText, wholeNumber } from './entities';

/**
 * Who imports CSV lists into the population (docs/imports.md; the spec does not say): the audience managers, CSM and
 * CSM_LEAD (ADMIN passes any-of). An import changes the app users every audience selects.
 */
const importers = access.anyOf('CSM', 'CSM_LEAD');

/** A file of the CSV area, by its name (one segment: no folder). */
const fileName = shortText(255)
  .min(1)
  .refine((name) => !/[\\/]/.test(name) && name !== '.' && name !== '..', 'Nom de fichier invalide');

export const csvFileSchema = z.object({ name: z.string(), size: z.number().int(), updatedAt: z.number().int() });
export type CsvFile = z.infer<typeof csvFileSchema>;

export const mappingSchema = z
  .array(z.strictObject({ header: z.string().max(500), field: z.enum(IMPORT_FIELDS).nullable() }))
  .min(1)
  .max(500);

export const csvDataSchema = z.object({
  filename: z.string(),
  headers: z.array(z.string()),
  /** The rows of the page, each cell under the header of the same position. */
  data: z.array(z.array(z.string())),
  availableFields360: z.array(z.enum(IMPORT_FIELDS)),
  /** Whether rows follow this page. */
  hasMore: z.boolean(),
  separator: z.enum([';', ',']),
  encoding: z.enum(['utf-8', 'windows-1252']),
});
export type CsvData = z.infer<typeof csvDataSchema>;

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

export const importJobSchema = z.object({
  id: z.number().int(),
  filename: z.string(),
  state: z.enum(IMPORT_STATES),
  /** While running: reading and checking the rows, then writing them into the population. */
  phase: z.enum(['reading', 'merging']).nullable(),
  /** Rows read, rows valid, users written so far. */
  progress: z.object({ read: z.number().int(), valid: z.number().int(), written: z.number().int() }),
  inserted: z.number().int(),
  updated: z.number().int(),
  /** Every refused row counted; the first 1,000 listed by line (the header is line 1) and column. */
  errorCount: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), column: z.string(), message: z.string() })),
  message: z.string().nullable(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

export const importOperations = {
  'imports.upload': defineOperation({
    method: 'POST',
    path: '/csv/upload',
    summary: 'Uploads one CSV file into the CSV area of the document storage (multipart: file), streamed',
    access: importers,
    multipart: { fields: z.strictObject({}), maxFileBytes: CSV_MAX_BYTES, formats: CSV_FORMATS },
    response: csvFileSchema,
  }),
  'imports.files': defineOperation({
    method: 'GET',
    path: '/csv/list',
    summary: 'The CSV files of the CSV area, newest first',
    access: importers,
    response: z.object({ files: z.array(csvFileSchema) }),
  }),
  'imports.data': defineOperation({
    method: 'GET',
    path: '/csv/data',
    summary: "A page of a CSV file's rows, its headers and the user fields a column may fill (availableFields360)",
    access: importers,
    query: z.strictObject({
      filename: fileName,
      max: wholeNumber(1, CSV_DATA_MAX_ROWS).default(CSV_PREVIEW_PAGE_SIZE),
      skip: wholeNumber(0, 100_000_000).default(0),
    }),
    response: csvDataSchema,
  }),
  'imports.run': defineOperation({
    method: 'POST',
    path: '/csv/import',
    summary: 'Starts importing a CSV file into the population with a mapping (header → field); answers the job',
    access: importers,
    body: z.strictObject({ filename: fileName, mapping: mappingSchema }),
    successStatus: 202,
    response: importJobSchema,
  }),
  'imports.jobs': defineOperation({
    method: 'GET',
    path: '/csv/imports',
    summary: 'The latest imports (without their error lists), newest first',
    access: importers,
    response: z.object({ jobs: z.array(importJobSchema) }),
  }),
  'imports.job': defineOperation({
    method: 'GET',
    path: '/csv/import/:id',
    summary: "An import's state, progress and errors",
    access: importers,
    params: z.strictObject({ id: idParam }),
    response: importJobSchema,
  }),
  'imports.cancel': defineOperation({
    method: 'POST',
    path: '/csv/import/:id/cancel',
    summary: 'Cancels an import under way (nothing of it is applied); any instance may receive it',
    access: importers,
    params: z.strictObject({ id: idParam }),
    response: importJobSchema,
  }),
};
