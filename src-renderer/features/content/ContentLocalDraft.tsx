import { useAtomValue, useSetAtom } from 'jotai';
import { useLocalDraft } from '../../lib/local-drafts';
import { DraftOffer } from '../../ui/DraftOffer';
import type { EditorAtoms } from './editor-atoms';
import type { ContentItem } from './types';

/**
 * The advert or article editor's local draft (lib/local-drafts.ts), named by the route (`advert:12`,
 * `article:new`): kept while the form differs from the saved item, offered back when the item reopens. Resumed,
 * its values (and the version they were based on) go into the form; a stale one meets the usual 409 on save.
 */
export function ContentLocalDraft({ atoms, recordKey }: { atoms: EditorAtoms; recordKey: string }) {
  const draft = useAtomValue(atoms.draftAtom);
  const pristine = useAtomValue(atoms.pristineAtom);
  const saved = useAtomValue(atoms.savedAtom);
  const patch = useSetAtom(atoms.patchAtom);
  const local = useLocalDraft<ContentItem>(recordKey, draft, pristine, saved?.version ?? null);
  return (
    <DraftOffer
      local={local}
      onResume={(values) => {
        // The id is the route's; everything else is what the user had typed.
        const { id: _id, ...typed } = values;
        patch(typed);
      }}
    />
  );
}
