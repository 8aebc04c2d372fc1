import { useSetAtom } from 'jotai';
import { useState } from 'react';
import type { AdvertMediaAnswer } from '@shared/contract/advert-media';
import { ADVERT_MEDIA_MESSAGES as M, ADVERT_MEDIA_NOTICES as N } from '@shared/messages/advert-media';
import { ADVERT_SCREEN_NOTICES } from '@shared/messages/advert-screens';
import type { Notice } from '@shared/messages/notice';
import { STORAGE_MESSAGES, STORAGE_NOTICES } from '@shared/messages/storage';
import type { AdvertAttachmentKind } from '@shared/rules/storage';
import { MediaLibraryModal } from './media-library/MediaLibraryModal';
import { raiseNoticeAtom } from '../../lib/notices';
import { uploadBytesAtom, uploadFileAtom, UploadProgressList, type UploadResult } from '../../lib/uploads';
import { ImageEditorModal } from './ImageEditorModal';
import type { ContentItem, ContentKind } from './types';
import { MediaThumb } from './MediaThumb';
import { useMarkStored } from './stored-change';
import { FieldError, useFieldError, useHighlighted } from './fields';

/** The §8 toasts of each attachment kind: while uploading, once saved, on failure. */
const TOASTS: Record<AdvertAttachmentKind, { uploading: Notice; saved: Notice; failed: (error: string) => Notice; label: string }> = {
  logo: { uploading: N.uploadingLogo, saved: N.logoSaved, failed: N.logoSaveFailed, label: 'Logo' },
  cover: { uploading: N.uploadingImage, saved: N.imageSaved, failed: N.imageSaveFailed, label: 'Image' },
  video: { uploading: N.uploadingVideo, saved: N.videoSaved, failed: N.videoSaveFailed, label: 'Vidéo' },
};
/** A banner's image is the advert's image (a 'cover' upload), with its own §8 text 'Bannière enregistrée'. */
const BANNER_TOASTS = { uploading: N.uploadingBanner, saved: N.bannerSaved, failed: N.bannerSaveFailed, label: 'Bannière' };

/**
 * Uploads a logo, an image (or a banner's image) or a video of a saved advert through the upload channel (progress
 * per file, cancellable): the server sets it on the advert, the draft takes it as stored, and §8's toasts say so.
 */
export function useAttachmentUpload(draft: ContentItem, patch: (patch: Partial<ContentItem>) => void, kind: ContentKind) {
  const raise = useSetAtom(raiseNoticeAtom);
  const uploadFile = useSetAtom(uploadFileAtom);
  const uploadBytes = useSetAtom(uploadBytesAtom);
  const markStored = useMarkStored();
  const advertId = kind === 'advert' ? draft.id : undefined;
  const images = draft.images ?? [];
  return async function upload(kindOfMedia: AdvertAttachmentKind, edited?: { blob: Blob; fileName: string }, banner = false) {
    if (advertId === undefined) return;
    const toasts = banner ? BANNER_TOASTS : TOASTS[kindOfMedia];
    const request = {
      operation: 'adverts.uploadAttachment' as const,
      params: { kind: kindOfMedia },
      fields: { advertId: String(advertId) },
      label: toasts.label,
    };
    raise(toasts.uploading);
    const result: UploadResult = edited ? await uploadBytes({ ...request, blob: edited.blob, fileName: edited.fileName }) : await uploadFile(request);
    if (!result.ok) {
      if (result.errorMsg === STORAGE_MESSAGES.uploadCancelled) raise(STORAGE_NOTICES.uploadCancelled);
      else raise(result.status === 403 ? ADVERT_SCREEN_NOTICES.userNotAllowed : toasts.failed(result.errorMsg));
      return;
    }
    if (!result.data) return;
    const { webpath, advert } = result.data.answer as AdvertMediaAnswer;
    if (kindOfMedia === 'logo') patch({ logo: webpath });
    else if (kindOfMedia === 'video') patch({ video: webpath });
    else patch({ image: webpath, images: [webpath, ...images.filter((image) => image !== webpath)] });
    // The server set it on the advert already: on its own it is no unsaved change (docs/content.md, unsaved changes).
    markStored((stored) => {
      // The upload moved the advert's version: the next save is based on it.
      const item = { ...stored, version: advert.version };
      if (kindOfMedia === 'logo') return { ...item, logo: webpath };
      if (kindOfMedia === 'video') return { ...item, video: webpath };
      return { ...item, image: webpath, images: [webpath, ...(item.images ?? []).filter((image) => image !== webpath)] };
    });
    raise(toasts.saved);
  };
}

/**
 * A banner's image (adverts-articles.md §2.2: the banner hides 'Visuels et descriptifs'; §8 'Bannière
 * enregistrée'): its thumbnail and the upload, once the advert is saved. Publication needs it (rules/publication).
 */
export function BannerImageField(props: { draft: ContentItem; patch: (patch: Partial<ContentItem>) => void; readOnly: boolean }) {
  const { draft, readOnly } = props;
  const upload = useAttachmentUpload(draft, props.patch, 'advert');
  const image = draft.image ?? draft.images?.[0] ?? null;
  const highlighted = useHighlighted('images');
  const error = useFieldError('images');
  return (
    <div
      className={`media-row${highlighted ? ' highlighted' : ''}`}
      data-testid="banner-image"
      data-field="images"
      data-highlighted={highlighted || undefined}
    >
      <UploadProgressList />
      <span className="field-label">{M.banner}</span>
      {image ? <MediaThumb url={image} alt={M.banner} testId="media-banner" /> : <span className="muted">—</span>}
      {draft.id === undefined ? (
        <span className="muted" data-testid="banner-save-first">
          {M.saveToUpload}
        </span>
      ) : (
        !readOnly && (
          <button type="button" className="secondary small" onClick={() => void upload('cover', undefined, true)} data-testid="upload-banner">
            {M.uploadBanner}
          </button>
        )
      )}
      <FieldError field="images" message={error} />
    </div>
  );
}

/**
 * The media of 'Visuels et descriptifs' (adverts-articles.md §2.2, §7 Uploads, §8): logo, images and video of a
 * saved advert uploaded through the upload channel (progress per file, cancellable), an image cropped and resized
 * in the image editor first, images removed, and the item's media library to upload into and pick from.
 */
export function MediaFields(props: { draft: ContentItem; patch: (patch: Partial<ContentItem>) => void; kind: ContentKind; readOnly: boolean }) {
  const { draft, patch, kind, readOnly } = props;
  const raise = useSetAtom(raiseNoticeAtom);
  const [editorOpen, setEditorOpen] = useState(false);
  const [libraryOpen, setLibraryOpen] = useState(false);
  const images = draft.images ?? [];
  const upload = useAttachmentUpload(draft, patch, kind);

  if (draft.id === undefined) {
    return (
      <div className="upload-placeholder" data-testid="uploads-placeholder">
        {M.saveToUpload}
      </div>
    );
  }

  function addImage(url: string) {
    patch({ image: url, images: [url, ...images.filter((image) => image !== url)] });
  }

  function removeImage(url: string) {
    const rest = images.filter((image) => image !== url);
    patch({ images: rest, image: draft.image === url ? (rest[0] ?? null) : draft.image });
  }

  return (
    <div className="media-fields" data-testid="media-fields">
      <UploadProgressList />
      {kind === 'advert' && (
        <div className="media-row">
          <span className="field-label">Logo</span>
          {draft.logo ? <MediaThumb url={draft.logo} alt="Logo" testId="media-logo" /> : <span className="muted">—</span>}
          {!readOnly && (
            <button type="button" className="secondary small" onClick={() => void upload('logo')} data-testid="upload-logo">
              {M.uploadLogo}
            </button>
          )}
        </div>
      )}
      <div className="media-row">
        <span className="field-label">Images</span>
        <ul className="media-images" data-testid="media-images">
          {images.map((url) => (
            <li key={url} data-testid="media-image" data-url={url}>
              <MediaThumb url={url} />
              {!readOnly && (
                <button type="button" className="link danger" onClick={() => removeImage(url)} data-testid="remove-image">
                  {M.removeImage}
                </button>
              )}
            </li>
          ))}
        </ul>
        {!readOnly && (
          <span className="inline">
            {kind === 'advert' && (
              <>
                <button type="button" className="secondary small" onClick={() => void upload('cover')} data-testid="upload-image">
                  {M.uploadImage}
                </button>
                <button type="button" className="secondary small" onClick={() => setEditorOpen(true)} data-testid="edit-image">
                  {M.editImage}
                </button>
              </>
            )}
            <button type="button" className="secondary small" onClick={() => setLibraryOpen(true)} data-testid="open-media-library">
              {M.libraryOpen}
            </button>
            {images.length > 0 && (
              <button
                type="button"
                className="link danger"
                onClick={() => {
                  patch({ images: [], image: null });
                  raise(N.imagesRemoved);
                }}
                data-testid="remove-images"
              >
                {M.removeImages}
              </button>
            )}
          </span>
        )}
      </div>
      {kind === 'advert' && draft.type === 'video' && (
        <div className="media-row">
          <span className="field-label">Vidéo</span>
          {draft.video ? <MediaThumb url={draft.video} video testId="media-video" /> : <span className="muted">—</span>}
          {!readOnly && (
            <button type="button" className="secondary small" onClick={() => void upload('video')} data-testid="upload-video">
              {M.uploadVideo}
            </button>
          )}
        </div>
      )}
      <ImageEditorModal
        open={editorOpen}
        onClose={() => setEditorOpen(false)}
        onDone={(blob, fileName) => {
          setEditorOpen(false);
          void upload('cover', { blob, fileName });
        }}
      />
      <MediaLibraryModal
        label={kind}
        ownerId={draft.id}
        open={libraryOpen}
        onClose={() => setLibraryOpen(false)}
        onPick={readOnly ? undefined : addImage}
      />
    </div>
  );
}
