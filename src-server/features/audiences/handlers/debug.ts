import { MESSAGES } from '@shared/messages';
import type { ServerContext } from '../../../context';
import { HttpError } from '../../../errors';
import type { FeatureServices } from '../../../feature-services';
import type { Handlers } from '../../../operations';
import { appUserExists } from '../queries/population';

export type AudienceDebugHandlers = Pick<Handlers, 'audiences.debug'>;

/**
 * The audience debug page: the audiences an app user belongs to and the adverts they would be served. Built apart
 * from the rest of the feature (audienceDebugFeature), after the adverts feature, which needs the audience engine.
 */
export function audienceDebugHandlers(
  context: ServerContext,
  { audienceMembership, advertsForUser }: Pick<FeatureServices, 'audienceMembership' | 'advertsForUser'>,
): AudienceDebugHandlers {
  return {
    'audiences.debug': async ({ params }) => {
      if (!(await appUserExists(context.db, params.userId))) throw new HttpError(404, MESSAGES.appUserNotFound);
      return { audiences: audienceMembership.audiencesOf(params.userId), adverts: await advertsForUser(params.userId) };
    },
  };
}
