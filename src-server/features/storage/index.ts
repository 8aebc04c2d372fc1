import { defineFeature } from '../../feature-wiring';
import { storageHandlers, type StorageHandlers } from './handlers/documents';
import { libraryHandlers } from './handlers/libraries';

/**
 * Files (docs/storage.md): the storage browser's calls, the media route, media libraries and advert media deletion,
 * over the server's storage (context.storage; adapters and the multipart pipeline live in src-server/storage/).
 */
export const storageFeature = defineFeature({
  name: 'storage',
  needs: [],
  provides: [],
  build: (context) => {
    const handlers: StorageHandlers = { ...storageHandlers(context, context.storage), ...libraryHandlers(context, context.storage) };
    return { handlers };
  },
});
