import { useSetAtom } from 'jotai';
import { useState, type RefObject } from 'react';
import { STORY_MESSAGES as S } from '@shared/messages/story';
import { captureScreenshotAtom } from '../preview/capture';
import { PREVIEW_MESSAGES } from '@shared/messages/previews';

/**
 * The story creator's screenshot button (adverts-articles.md §2.3): the selected screen's canvas goes to the
 * advert's BAT screenshots, as the preview's capture does ('Votre capture est disponible dans l'onglet BAT').
 */
export function ScreenCaptureButton(props: { advertId: number; canvasRef: RefObject<HTMLDivElement | null> }) {
  const capture = useSetAtom(captureScreenshotAtom);
  const [capturing, setCapturing] = useState(false);
  async function take() {
    if (!props.canvasRef.current) return;
    setCapturing(true);
    try {
      await capture({ advertId: props.advertId, element: props.canvasRef.current });
    } finally {
      setCapturing(false);
    }
  }
  return (
    <button type="button" className="secondary small" disabled={capturing} onClick={() => void take()} data-testid="story-capture">
      {capturing ? PREVIEW_MESSAGES.capturing : S.captureScreen}
    </button>
  );
}
