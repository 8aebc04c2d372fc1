import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type JSX } from 'react';
import { ADVERT_MEDIA_MESSAGES as M } from '@shared/messages/advert-media';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { isVideoUrl } from '@shared/rules/storage';
import { Dialog } from '../../../ui/Dialog';
import { UploadProgressList } from '../../../lib/uploads';
import { useQuery } from '../../../lib/use-query';
import {
  deleteLibraryMediaAtom,
  libraryLabelOf,
  loadMediaLibraryAtom,
  mediaLibraryAtom,
  mediaLibraryLoadingAtom,
  uploadLibraryMediaAtom,
  type LibraryLabel,
} from './atoms';
import './media-library.css';

export type { LibraryLabel } from './atoms';

/**
 * The global media library modal (platform.md: "a global modal can show a media library"; adverts-articles.md §3
 * Library, §5, §7): the media of one advert's or article's library, upload with progress, delete, and pick.
 */
export function MediaLibraryModal(props: {
  label: LibraryLabel | 'Advert' | 'Article';
  ownerId: number;
  open: boolean;
  onClose(): void;
  onPick?(webpath: string): void;
}): JSX.Element | null {
  const { open, ownerId, onClose, onPick } = props;
  const label = libraryLabelOf(props.label);
  const load = useSetAtom(loadMediaLibraryAtom);
  const upload = useSetAtom(uploadLibraryMediaAtom);
  const remove = useSetAtom(deleteLibraryMediaAtom);
  const library = useAtomValue(mediaLibraryAtom);
  const loading = useAtomValue(mediaLibraryLoadingAtom);
  const [busy, setBusy] = useState<string | null>(null);
  /** A media adverts still show: the server's list of them, and the question before it goes (docs/content.md, media in use). */
  const [inUse, setInUse] = useState<{ url: string; message: string } | null>(null);

  useQuery(['library.get', label, ownerId], (signal) => (label ? load({ label, ownerId }, signal) : Promise.resolve(null)), {
    enabled: open && label !== null,
  });

  if (!open || !label) return null;
  const shown = library && library.label === label && library.ownerId === ownerId ? library : null;

  async function removeMedia(url: string, force = false) {
    setBusy(url);
    setInUse(null);
    try {
      const answer = await remove(url, force);
      if (typeof answer === 'object') setInUse({ url, message: answer.inUse });
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="modal-backdrop media-library-backdrop" data-testid="media-library">
      <Dialog
        title={M.libraryTitle}
        onCancel={onClose}
        testId="media-library-dialog"
        actions={
          <>
            <button type="button" className="secondary" disabled={!shown} onClick={() => void upload()} data-testid="media-library-upload">
              {M.libraryUpload}
            </button>
            <button type="button" className="primary" onClick={onClose} data-testid="media-library-close">
              {M.close}
            </button>
          </>
        }
      >
        <UploadProgressList />
        {inUse && (
          <div className="media-library-in-use" role="alertdialog" aria-label={STORAGE_MESSAGES.deleteAnyway} data-testid="media-library-in-use">
            <p data-testid="media-library-in-use-text">{`${inUse.message} ${STORAGE_MESSAGES.deleteAnyway}`}</p>
            <button type="button" onClick={() => setInUse(null)} data-testid="media-library-keep">
              {STORAGE_MESSAGES.keepMedia}
            </button>{' '}
            <button
              type="button"
              className="danger"
              disabled={busy === inUse.url}
              onClick={() => void removeMedia(inUse.url, true)}
              data-testid="media-library-delete-anyway"
            >
              {STORAGE_MESSAGES.deleteAnywayConfirm}
            </button>
          </div>
        )}
        {!shown && loading && <p className="muted">{M.libraryLoading}</p>}
        {shown && shown.content.length === 0 && (
          <p className="muted" data-testid="media-library-empty">
            {M.libraryEmpty}
          </p>
        )}
        {shown && shown.content.length > 0 && (
          <ul className="media-library-grid" data-testid="media-library-items">
            {shown.content.map((url) => (
              <li key={url} className="media-library-item" data-testid="media-library-item" data-url={url}>
                <button
                  type="button"
                  className="media-library-thumb"
                  disabled={!onPick}
                  title={onPick ? M.pick : undefined}
                  onClick={() => {
                    onPick?.(url);
                    onClose();
                  }}
                  data-testid="media-library-pick"
                >
                  {isVideoUrl(url) ? <video src={url} muted preload="metadata" /> : <img src={url} alt="" loading="lazy" />}
                </button>
                <button
                  type="button"
                  className="link danger"
                  disabled={busy === url}
                  onClick={() => void removeMedia(url)}
                  data-testid="media-library-delete"
                >
                  {M.delete}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Dialog>
    </div>
  );
}
