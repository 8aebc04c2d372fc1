import { parseClause, type PopulationCriteria } from '@shared/rules/push';
import { HttpError } from '../../errors';

/**
 * The security clause (platform.md §5: appended to the query) → criteria. Never SQL: parsed by the filter
 * language (src-shared/rules/filter-language.ts) into a tree whose values stay values, evaluated on the engine's
 * bitmaps like the rest of the targeting. A mistake is a 400 naming where.clause, in French with its position.
 */
export function clauseCriteriaOf(text: string): PopulationCriteria | null {
  const parsed = parseClause(text);
  if (!parsed.ok) throw new HttpError(400, parsed.message, {}, 'where.clause');
  return parsed.criteria;
}
