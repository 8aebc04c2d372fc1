import type { ServerContext } from '../../context';
import { HttpError } from '../../errors';
import type { Handlers } from '../../operations';
import { contentService } from './content';
import { advertHandlers, articleHandlers } from './handlers';

type DecisioningHandlers = Pick<Handlers, 'decisioning.adverts' | 'decisioning.search' | 'autopublish.report' | 'url.parse'>;

/** Adverts and articles (issue 10): lists, editors' calls, publication, funnels, stories. */
export async function advertsFeature(context: ServerContext) {
  const content = contentService(context);
  const pending = async (): Promise<never> => {
    throw new HttpError(501, 'Pas encore disponible');
  };
  const later: DecisioningHandlers = {
    'decisioning.adverts': pending,
    'decisioning.search': pending,
    'autopublish.report': pending,
    'url.parse': pending,
  };
  return { ...advertHandlers(context, content), ...articleHandlers(context, content), ...later };
}
