import type { PopulationCriteria } from '@shared/rules/push';
import { HttpError } from '../../errors';

/**
 * The security clause (platform.md §5: appended to the query) → criteria. Never SQL: parsed by the filter
 * language into a tree whose values stay values, then evaluated on the engine's bitmaps.
 */
export function clauseCriteriaOf(text: string): PopulationCriteria | null {
  if (!text.trim()) return null;
  throw new HttpError(400, 'Clause de sécurité : pas encore disponible', {}, 'where.clause');
}
