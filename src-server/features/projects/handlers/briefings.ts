import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { sanitizeRichText } from '../../../rich-text';
import { briefingRow, insertBriefing, updateBriefing } from '../queries/briefings';
import { accountId, BRIEFING_TEXT, projectRow, type ProjectFeatureParts } from './shared';

export type BriefingHandlers = Pick<Handlers, 'briefings.create' | 'briefings.update'>;

/** A project's briefing (one per project), its rich text sanitised before it is stored. */
export function briefingHandlers({ context }: ProjectFeatureParts): BriefingHandlers {
  const { db } = context;
  return {
    'briefings.create': async (input) => {
      const author = accountId(input);
      await projectRow(db, input.body.projectId);
      const id = await insertBriefing(db, input.body.projectId, sanitizeRichText(input.body.content, BRIEFING_TEXT), author);
      if (id === undefined) throw new HttpError(409, PROJECT_MESSAGES.briefingExists);
      return (await briefingRow(db, { id }))!;
    },

    'briefings.update': async (input) => {
      const author = accountId(input);
      const content = sanitizeRichText(input.body.content, BRIEFING_TEXT);
      if (!(await updateBriefing(db, input.params.id, content, author))) throw new HttpError(404, PROJECT_MESSAGES.briefingNotFound);
      return (await briefingRow(db, { id: input.params.id }))!;
    },
  };
}
