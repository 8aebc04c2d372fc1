import { defineFeature } from '../../feature-wiring';
import { advertMediaHandlers } from './handlers/uploads';

/** Advert and story media uploads (adverts-articles.md §7 Uploads), written through the adverts feature's writes. */
export const advertMediaFeature = defineFeature({
  name: 'advert-media',
  needs: ['advertWrites'],
  provides: [],
  build: (context, { advertWrites }) => ({ handlers: advertMediaHandlers(context, () => advertWrites) }),
});
