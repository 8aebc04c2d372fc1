import { z } from 'zod';
import { access } from '../../roles';
import { NODE_SEARCH_LIMIT } from '../../rules/audiences';
import { defineOperation } from '../define';
import { idParam, shortText, wholeNumber } from '../entities';
import { nodeLabel, nodeSchema } from './shared';

/** Nodes (the criteria an audience or a group is made of): the criteria search and the keyword modal. */

export const nodeOperations = {
  'nodes.search': defineOperation({
    method: 'GET',
    path: '/search',
    summary: 'Criteria search (spec §5 filters; items already attached to `audienceId` or `groupId` left out)',
    access: access.anyOf('CSM_LEAD'),
    query: z.strictObject({
      term: shortText(200).min(1),
      limit: wholeNumber(1, 100).default(NODE_SEARCH_LIMIT),
      isGroup: z.enum(['true', 'false']).default('false'),
      label: nodeLabel.optional(),
      audienceId: idParam.optional(),
      groupId: idParam.optional(),
    }),
    response: z.array(nodeSchema),
  }),

  'nodes.keyword': defineOperation({
    method: 'POST',
    path: '/keyword',
    summary: "The Keyword node of a text, created when no search made it yet (the editor's new keyword modal); trimmed and lowercased",
    access: access.anyOf('CSM_LEAD'),
    body: z.strictObject({
      name: shortText(200)
        .transform((text) => text.trim().toLowerCase())
        .pipe(z.string().min(1)),
    }),
    response: nodeSchema,
  }),
};
