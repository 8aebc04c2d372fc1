import type { ServerContext } from '../../context';
import { metaHandlers, type MetaHandlers } from './handlers/meta';

/** Reference data for the forms (professions, specialties, audiences, CSM accounts). */
export async function metaFeature(context: ServerContext): Promise<MetaHandlers> {
  return metaHandlers(context);
}
