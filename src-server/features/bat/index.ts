import type { batOperations } from '@shared/contract/bat';
import type { ServerContext } from '../../context';
import { defineFeature } from '../../feature-wiring';
import type { Handlers } from '../../operations';
import { signedDocumentUrl } from '../../storage/document-urls';
import { editorHandlers } from './handlers/editor';
import { screenshotHandlers } from './handlers/screenshots';
import { versionHandlers } from './handlers/versions';
import type { VersionRow } from './queries';

type BatHandlers = Pick<Handlers, keyof typeof batOperations>;

/**
 * The proof (BAT) of an advert (adverts-articles.md §2.6, §7 BAT): pages, layers and items saved with a version
 * check, its screenshot library (the preview captures), and frozen versions with their approval (docs/content.md, BAT proofs).
 * A demo advert's proof is seeded by src-server/demo.
 */
export const batFeature = defineFeature({
  name: 'bat',
  needs: [],
  provides: [],
  build: (context) => ({ handlers: batHandlers(context) }),
});

function batHandlers(context: ServerContext): BatHandlers {
  // A frozen PDF is a client document: served by this server's /cdn/ with a signed, expiring link.
  const versionUrl = (row: VersionRow) => signedDocumentUrl(context.tokens, row.storageKey, context.clock.now());
  return {
    ...editorHandlers(context, versionUrl),
    ...screenshotHandlers(context),
    ...versionHandlers(context, versionUrl),
  };
}
