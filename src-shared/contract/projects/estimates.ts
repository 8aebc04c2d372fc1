import { z } from 'zod';
import { estimateImporters, projectWriters } from '../../access-rules';
import { ACTORS, ESTIMATE_FILE_MAX_CHARS, ESTIMATE_ID_PATTERN } from '../../rules/projects';
import { defineOperation } from '../define';
import { idParam, multilineText, shortText } from '../entities';
import { projectSchema } from './projects';

/** Quotes (DEV-…) made into projects or added to one, and the invoicing tool's quote export loaded (spec §6). */

const estimateId = z.string().regex(ESTIMATE_ID_PATTERN, 'numéro de devis attendu (DEV-…)');

export const estimateOperations = {
  'estimates.createProject': defineOperation({
    method: 'GET',
    path: '/project/estimate/:id',
    summary: 'Create a project from a quote (DEV-…): its lines become targets',
    access: projectWriters,
    // A GET by the spec, but it creates: keyed and answered once, never retried blindly.
    sideEffects: 'creates',
    params: z.strictObject({ id: estimateId }),
    query: z.strictObject({ name: shortText(200).min(1), actor: z.enum(ACTORS), keyAccount: idParam }),
    response: projectSchema,
  }),
  'estimates.importIntoProject': defineOperation({
    method: 'PUT',
    path: '/project/:projectId/estimate/:estimateId',
    summary: "Add a quote's lines to an existing project as targets",
    access: projectWriters,
    params: z.strictObject({ projectId: idParam, estimateId }),
    response: projectSchema,
  }),
  'estimates.importFile': defineOperation({
    method: 'POST',
    path: '/estimates/import',
    summary: "Load the invoicing tool's quote export (CSV) into the default estimate source; a quote's lines are replaced",
    access: estimateImporters,
    body: z.strictObject({ csv: multilineText(ESTIMATE_FILE_MAX_CHARS).min(1) }),
    // The JSON of 5 M characters of a French export is about 5.2 MB (accents take 2 bytes, each line end 4); 8 MiB
    // leaves room for a file heavy in accents, and a body past it is refused (413) before it is parsed.
    bodyLimit: 8 * 1024 * 1024,
    response: z.object({ quotes: z.number().int(), lines: z.number().int() }),
  }),
};
