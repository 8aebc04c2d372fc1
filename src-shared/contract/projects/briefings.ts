import { z } from 'zod';
import { projectReaders } from '../../access-rules';
import { defineOperation } from '../define';
import { idParam } from '../entities';
import { id } from './shared';

/** A project's briefing (Lexical JSON): every reader of the project writes it (spec §6). */

/** Lexical editor state; stored sanitised (known nodes, safe links only). */
const lexicalState = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 200_000, 'briefing trop long (200 000 caractères au plus)');
export const briefingSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  content: z.record(z.string(), z.unknown()),
  updatedAt: z.number().int(),
});

export const briefingOperations = {
  'briefings.create': defineOperation({
    method: 'POST',
    path: '/briefing/create',
    summary: "Write a project's briefing (Lexical JSON, stored sanitised)",
    access: projectReaders,
    body: z.strictObject({ projectId: id, content: lexicalState }),
    response: briefingSchema,
    successStatus: 201,
  }),
  'briefings.update': defineOperation({
    method: 'PUT',
    path: '/briefing/:id',
    summary: 'Rewrite a briefing',
    access: projectReaders,
    params: z.strictObject({ id: idParam }),
    body: z.strictObject({ content: lexicalState }),
    response: briefingSchema,
  }),
};
