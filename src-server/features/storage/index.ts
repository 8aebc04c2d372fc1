import type { ServerContext } from '../../context';
import { defineFeature } from '../../feature-wiring';
import { seedStorageDemo } from './demo';
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
  build: async (context) => ({ handlers: await storageHandlersOf(context) }),
});

async function storageHandlersOf(context: ServerContext): Promise<StorageHandlers> {
  if (context.config.seedStorageDemo) {
    await seedStorageDemo(context.storage).catch((error) => context.logger.warn({ err: error }, 'demo documents not seeded'));
  }
  return { ...storageHandlers(context, context.storage), ...libraryHandlers(context, context.storage) };
}
