import type { ServerContext } from '../../context';
import { createStorage } from './config';
import { seedStorageDemo } from './demo';
import { storageHandlers, type StorageHandlers } from './handlers';
import { libraryHandlers } from './library';

/**
 * Files (issue 11): the storage adapter of this server (local folder or S3), the storage browser's calls, the
 * media route, and the multipart pipeline (`receiveFile`) that other features' upload calls use.
 */
export async function storageFeature(context: ServerContext): Promise<StorageHandlers> {
  const storage = createStorage(context.config.storage);
  context.onClose(() => storage.close());
  if (context.config.seedStorageDemo) {
    await seedStorageDemo(storage.adapter).catch((error) => context.logger.warn({ err: error }, 'demo documents not seeded'));
  }
  return { ...storageHandlers(context, storage.adapter), ...libraryHandlers(context, storage.adapter) };
}
