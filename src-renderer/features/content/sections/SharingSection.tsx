import { Checkbox, Section, TextInput } from '../fields';
import type { SectionProps } from './section-props';

/** Sharing options (§2.2 'Options de partage'): likes, bookmarks, sharing, and the shared link and message. */
export function SharingSection({ draft, patch, kind }: SectionProps) {
  const sharing = draft.sharing ?? { enableLikes: true, enableBookmarking: true, enableSharing: true, sharingLink: '', sharingMessage: '' };
  const set = (change: Partial<typeof sharing>) => patch({ sharing: { ...sharing, ...change } });
  return (
    <Section id="sharing" title={kind === 'advert' ? 'Options de partage' : 'Sharing options'}>
      <div className="grid-2">
        <Checkbox field="sharing.enableLikes" label="J'aime" checked={sharing.enableLikes} onChange={(enableLikes) => set({ enableLikes })} />
        <Checkbox
          field="sharing.enableBookmarking"
          label="Favoris"
          checked={sharing.enableBookmarking}
          onChange={(enableBookmarking) => set({ enableBookmarking })}
        />
        <Checkbox
          field="sharing.enableSharing"
          label="Partage"
          checked={sharing.enableSharing}
          onChange={(enableSharing) => set({ enableSharing })}
        />
      </div>
      <div className="grid-2">
        <TextInput field="sharing.sharingLink" label="Lien de partage" value={sharing.sharingLink} onChange={(sharingLink) => set({ sharingLink })} />
        <TextInput
          field="sharing.sharingMessage"
          label="Message de partage"
          value={sharing.sharingMessage}
          onChange={(sharingMessage) => set({ sharingMessage })}
        />
      </div>
    </Section>
  );
}
