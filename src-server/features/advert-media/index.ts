import type { ServerContext } from '../../context';
import { featureServices } from '../../feature-services';
import { advertMediaHandlers, type AdvertMediaHandlers } from './handlers/uploads';

/** Advert and story media uploads (adverts-articles.md §7 Uploads), written through the adverts feature's writes. */
export function advertMediaFeature(context: ServerContext): AdvertMediaHandlers {
  return advertMediaHandlers(context, () => {
    const found = featureServices(context).advertWrites;
    if (!found) throw new Error('the adverts feature is not registered');
    return found;
  });
}
