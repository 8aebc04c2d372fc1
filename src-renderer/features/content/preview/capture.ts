import html2canvas from 'html2canvas';
import { atom } from 'jotai';
import { PREVIEW_NOTICES as N } from '@shared/messages/previews';
import { screenshotFileName } from '@shared/rules/preview';
import { bridgeAtom } from '../../../lib/bridge';
import { base64OfBlob, withoutInlineStyles } from '../../../lib/html-capture';
import { raiseNoticeAtom } from '../../../lib/notices';

/** The preview canvas as a PNG at its full size (the pane's zoom is undone in the copy). */
export async function capturePreview(element: HTMLElement): Promise<Blob> {
  const canvas = await withoutInlineStyles(() =>
    html2canvas(element, {
      logging: false,
      backgroundColor: '#ffffff',
      scale: 1,
      useCORS: false,
      onclone: (_document, copy) => {
        for (let node: HTMLElement | null = copy; node; node = node.parentElement) node.style.zoom = '1';
      },
    }),
  );
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG'))), 'image/png'));
}

/**
 * 'Créer une capture de la preview' (§2.2): the capture goes to the advert's BAT screenshots through main
 * ('files:uploadBytes' → bat.uploadScreenshot), then 'Votre capture est disponible dans l'onglet BAT'; a refusal
 * shows the server's message (§8). Answers the capture's URL, or null.
 */
export const captureScreenshotAtom = atom(null, async (get, set, request: { advertId: number; element: HTMLElement }): Promise<string | null> => {
  let contentBase64: string;
  try {
    const blob = await capturePreview(request.element);
    contentBase64 = await base64OfBlob(blob);
  } catch (error) {
    set(raiseNoticeAtom, N.captureFailed((error as Error).message));
    return null;
  }
  const result = await get(bridgeAtom).invoke('files:uploadBytes', {
    jobId: crypto.randomUUID(),
    operation: 'bat.uploadScreenshot',
    fields: { advertId: String(request.advertId) },
    fileName: screenshotFileName(request.advertId, new Date()),
    contentBase64,
  });
  if (!result.ok) {
    set(raiseNoticeAtom, result.status === 403 ? N.userNotAllowed : N.captureFailed(result.errorMsg));
    return null;
  }
  set(raiseNoticeAtom, N.captureAvailable);
  return (result.data.answer as { webpath: string[] }).webpath[0] ?? null;
});
captureScreenshotAtom.debugLabel = 'content.preview.captureScreenshot';
