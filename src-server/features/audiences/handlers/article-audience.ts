import type { ArticleAudienceCriteria } from '@shared/contract/articles';
import { MESSAGES } from '@shared/messages';
import { ARTICLE_CRITERION_LABELS, isArticleCriterionLabel } from '@shared/rules/article-audience';
import { AREAS, TITLES } from '@shared/rules/audiences';
import { HttpError } from '../../../errors';
import type { ArticleAudienceService } from '../../../feature-services';
import { authorName } from '../definitions';
import {
  articleExists,
  articleOwnAudienceId,
  audienceNodes,
  deleteArticleOwnAudience,
  setArticleAudience,
  setAudienceArea,
} from '../queries/article-audience';
import { deleteRelationshipsOf, insertRelationships } from '../queries/relationships';
import { insertAudience, nextDefinitionId } from '../queries/audience-definitions';
import { nodesById, searchNodes, upsertNodes } from '../queries/nodes';
import type { Executor } from '../../../db/rows';
import type { AudienceFeatureParts } from './parts';

async function articleCriteria(executor: Executor, articleId: number): Promise<ArticleAudienceCriteria> {
  const audienceId = await articleOwnAudienceId(executor, articleId);
  if (audienceId === undefined) return { audienceId: null, criteria: [] };
  const found = await audienceNodes(executor, audienceId);
  const criteria = found.flatMap((node) => (isArticleCriterionLabel(node.label) ? [{ ...node, label: node.label }] : []));
  return { audienceId, criteria };
}

async function assertArticle(executor: Executor, articleId: number, lock: boolean): Promise<void> {
  if (!(await articleExists(executor, articleId, lock))) throw new HttpError(404, MESSAGES.articleNotFound);
}

/**
 * An article's own audience (adverts-articles.md §2.5): criteria picked on the article, kept as an audience the
 * article owns. A service the adverts feature calls, not operations of its own.
 */
export function articleAudienceService({ context, write }: AudienceFeatureParts): ArticleAudienceService {
  const { db } = context;

  /** Area and Title have fixed values: their nodes exist before anyone searches them. */
  let fixedNodesMade: Promise<unknown> | undefined;
  const makeFixedNodes = () =>
    (fixedNodesMade ??= upsertNodes(db, [
      ...AREAS.map((area) => ({ label: 'Area', value: area, name: area })),
      ...TITLES.map((title) => ({ label: 'Title', value: title, name: title })),
    ]).catch((error) => {
      fixedNodesMade = undefined;
      throw error;
    }));

  return {
    get: async (articleId) => {
      await assertArticle(db, articleId, false);
      return articleCriteria(db, articleId);
    },

    /**
     * Replaces the article's criteria in one transaction (the audience made on the first write, linked to the
     * article in place of any saved audience); the engine reloads it after the commit like any audience write.
     */
    setCriteria: async (articleId, byLabel, account) => {
      const author = await authorName(db, account?.id);
      return write(async (tx) => {
        await assertArticle(tx, articleId, true);
        const wanted = ARTICLE_CRITERION_LABELS.flatMap((label) => [...new Set(byLabel[label] ?? [])].map((id) => ({ label, id })));
        const nodes = new Map((await nodesById(tx, [...new Set(wanted.map((entry) => entry.id))])).map((node) => [node.id, node]));
        for (const entry of wanted) {
          const node = nodes.get(entry.id);
          if (!node || node.label !== entry.label) throw new HttpError(400, MESSAGES.nodeNotFound, {}, `criteria.${entry.label}`);
        }
        const areaEntry = wanted.find((entry) => entry.label === 'Area');
        const area = (areaEntry && nodes.get(areaEntry.id)!.value) || 'french';
        let audienceId = await articleOwnAudienceId(tx, articleId, true);
        if (audienceId === undefined) {
          audienceId = await nextDefinitionId(tx);
          const name = `Article ${articleId}`;
          await insertAudience(tx, {
            id: audienceId,
            name,
            type: 'timeline',
            area,
            isInCatalog: false,
            authorId: account?.id ?? null,
            authorName: author,
            articleId,
          });
        } else {
          await setAudienceArea(tx, audienceId, area);
        }
        await deleteRelationshipsOf(tx, { audienceId });
        await insertRelationships(
          tx,
          { audienceId },
          wanted.map((entry) => ({ nodeId: entry.id, type: 'AND' as const, kind: 'required' as const, event: null, caping: null })),
        );
        await setArticleAudience(tx, articleId, audienceId);
        return { result: await articleCriteria(tx, articleId), audiences: [audienceId] };
      });
    },

    search: async (label, term, limit) => {
      if (label === 'Area' || label === 'Title') await makeFixedNodes();
      const found = await searchNodes(db, { term, limit, label, userDomains: null });
      return found.flatMap(({ id, label: found, name }) => (isArticleCriterionLabel(found) ? [{ id, label: found, name }] : []));
    },

    /** The article went (deleted or converted): its own audience goes too, the engine told like any delete. */
    drop: (articleId) =>
      write(async (tx) => {
        const dropped = await deleteArticleOwnAudience(tx, articleId);
        return { result: dropped.length, audiences: dropped };
      }),
  };
}
