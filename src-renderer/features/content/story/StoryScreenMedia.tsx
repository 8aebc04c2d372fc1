import { useAtom, useSetAtom } from 'jotai';
import { useContext, useState } from 'react';
import type { AdvertMediaAnswer } from '@shared/contract/advert-media';
import type { StoryScreen } from '@shared/contract/content';
import { ADVERT_MEDIA_MESSAGES as AM, ADVERT_MEDIA_NOTICES as AN } from '@shared/messages/advert-media';
import { STORAGE_MESSAGES, STORAGE_NOTICES } from '@shared/messages/storage';
import { STORY_MESSAGES as S } from '@shared/messages/story';
import { MediaLibraryModal } from '../media-library/MediaLibraryModal';
import { raiseNoticeAtom } from '../../../lib/notices';
import { useLatest } from '../../../lib/render-state';
import { uploadFileAtom, UploadProgressList } from '../../../lib/uploads';
import { HighlightContext } from '../fields';
import { MediaThumb } from '../MediaThumb';
import { useMarkStored } from '../stored-change';
import type { ContentItem } from '../types';
import { mediaLibraryOpenAtom } from './atoms';

type ScreenMediaField = 'illustration' | 'logo';

const OPERATION = { illustration: 'stories.uploadScreenIllustration', logo: 'stories.uploadScreenLogo' } as const;

/**
 * The media of one story screen (adverts-articles.md §2.3, §7 Uploads, §8): upload its image or video and its
 * logo (progress, 'Image ou video enregistrée' / 'Logo enregistré' 1300 ms, the §8 errors), or pick the image
 * from the advert's media library (upload and delete happen in the library). The server sets the uploaded URL on
 * the stored screen; the draft takes the same URL, so its other unsaved changes stay.
 */
export function StoryScreenMedia(props: {
  advertId: number;
  screen: StoryScreen;
  onChange: (change: Partial<StoryScreen>) => void;
  onStored?: (change: Partial<StoryScreen>) => void;
}) {
  const { advertId, screen, onChange, onStored } = props;
  const markStored = useMarkStored();
  const upload = useSetAtom(uploadFileAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [libraryOpen, setLibraryOpen] = useAtom(mediaLibraryOpenAtom);
  const [busy, setBusy] = useState<ScreenMediaField | null>(null);

  async function send(field: ScreenMediaField) {
    setBusy(field);
    try {
      const label = field === 'logo' ? `${S.uploadScreenLogo}` : `${S.uploadIllustration}`;
      const result = await upload({ operation: OPERATION[field], fields: { advertId: String(advertId), screenId: String(screen.id) }, label });
      if (!result.ok) {
        if (result.errorMsg === STORAGE_MESSAGES.uploadCancelled) raise(STORAGE_NOTICES.uploadCancelled);
        else raise(field === 'logo' ? AN.logoSaveFailed(result.errorMsg) : AN.imageSaveFailed(result.errorMsg));
        return;
      }
      // Nothing picked.
      if (!result.data) return;
      const answer = result.data.answer as AdvertMediaAnswer;
      onChange({ [field]: answer.webpath });
      // Stored on the screen already: on its own it is no unsaved change (docs/content.md, unsaved changes).
      onStored?.({ [field]: answer.webpath });
      // The upload moved the advert's version: the next save is based on it.
      markStored((item) => ({ ...item, version: answer.advert.version }));
      raise(field === 'logo' ? AN.storyLogoSaved : AN.storyMediaSaved);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="story-media" data-testid="story-screen-media">
      <button
        type="button"
        className="secondary small"
        disabled={busy !== null}
        onClick={() => void send('illustration')}
        data-testid="screen-upload-illustration"
      >
        {S.uploadIllustration}
      </button>
      <button
        type="button"
        className="secondary small"
        disabled={busy !== null}
        onClick={() => setLibraryOpen(true)}
        data-testid="screen-open-library"
      >
        {AM.libraryOpen}
      </button>
      {screen.illustration && (
        <button type="button" className="link danger" onClick={() => onChange({ illustration: null })} data-testid="screen-remove-illustration">
          {S.removeIllustration}
        </button>
      )}
      <button type="button" className="secondary small" disabled={busy !== null} onClick={() => void send('logo')} data-testid="screen-upload-logo">
        {S.uploadScreenLogo}
      </button>
      <UploadProgressList />
      <MediaLibraryModal
        label="advert"
        ownerId={advertId}
        open={libraryOpen}
        onClose={() => setLibraryOpen(false)}
        onPick={(webpath) => onChange({ illustration: webpath })}
      />
    </div>
  );
}

/**
 * The story's own logo (adverts-articles.md §7 Uploads: story logo), shown on every screen without a logo of its
 * own: uploaded with progress, 'Logo enregistré' 1300 ms or the §8 error; the server sets it on the stored story.
 */
export function StoryLogoUpload(props: { advertId: number; draft: ContentItem; patch: (patch: Partial<ContentItem>) => void }) {
  const { advertId, draft, patch } = props;
  const logo = draft.story?.logo;
  // The answer applies to the draft as it is when it comes back (other story fields may have changed meanwhile).
  const latest = useLatest(draft);
  const upload = useSetAtom(uploadFileAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const markStored = useMarkStored();
  const [busy, setBusy] = useState(false);
  // The logo a published story needs (§5): highlighted when a save finds it missing.
  const highlighted = useContext(HighlightContext).includes('story.logo');

  async function send() {
    setBusy(true);
    try {
      const result = await upload({ operation: 'stories.uploadLogo', fields: { advertId: String(advertId) }, label: S.uploadStoryLogo });
      if (!result.ok) {
        if (result.errorMsg === STORAGE_MESSAGES.uploadCancelled) raise(STORAGE_NOTICES.uploadCancelled);
        else raise(AN.logoSaveFailed(result.errorMsg));
        return;
      }
      if (!result.data) return;
      const answer = result.data.answer as AdvertMediaAnswer;
      // A story saved before its first screen has no story in the draft yet: the server's, which now holds the logo.
      // Without it the logo stayed out of the draft, and the next save (publishing saves first) wrote no logo.
      const story = latest.current.story ?? answer.advert.story;
      if (story) patch({ story: { ...story, logo: answer.webpath } });
      // Stored with the advert already: on its own it is no unsaved change (docs/content.md, unsaved changes).
      const storedStory = answer.advert.story;
      markStored((stored) => {
        const item = { ...stored, version: answer.advert.version };
        return (item.story ?? storedStory) ? { ...item, story: { ...(item.story ?? storedStory)!, logo: answer.webpath } } : item;
      });
      raise(AN.storyLogoSaved);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      className={`media-row${highlighted ? ' highlighted' : ''}`}
      data-testid="story-logo"
      data-field="story.logo"
      data-highlighted={highlighted || undefined}
    >
      <span className="field-label">Logo de la story</span>
      {logo ? <MediaThumb url={logo} alt="Logo" testId="story-logo-thumb" /> : <span className="muted">—</span>}
      <button type="button" className="secondary small" disabled={busy} onClick={() => void send()} data-testid="story-upload-logo">
        {S.uploadStoryLogo}
      </button>
    </div>
  );
}
