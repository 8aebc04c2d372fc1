import { useSetAtom } from 'jotai';
import { useRef, useState } from 'react';
import { useAdjustOnChange } from '../../../lib/render-state';
import { Link } from 'react-router-dom';
import { PREVIEW_MESSAGES as M } from '@shared/messages/previews';
import {
  batPath,
  canCapture,
  canExpand,
  canvasSize,
  hasBatButton,
  initialZoom,
  previewState,
  zoomIn,
  zoomOut,
  ZOOM_MAX,
  ZOOM_MIN,
  type PreviewType,
  type QuizStep,
} from '@shared/rules/preview';
import type { ContentItem, ContentKind } from '../types';
import { captureScreenshotAtom } from './capture';
import { ItemPreview } from './ItemPreview';
import './preview.css';

/** Inner width of the editor's preview column (340 px less its padding). */
const PANE_WIDTH = 312;

/**
 * The editor's preview pane (adverts-articles.md §2.2, §2.5): the item as the app would show it, from the editor's
 * current draft (unsaved changes included). Zoom 0.5–1 by 0.05 (0.9 when expanded), expand toggle for story and
 * quiz, and for adverts the capture to the BAT and the edit-BAT button.
 */
export function PreviewPane(props: { item: ContentItem; kind: ContentKind }) {
  const { item, kind } = props;
  const state = previewState(item);
  if (state === 'new') {
    return (
      <p className="muted" data-testid="preview-save-first">
        {kind === 'article' ? M.saveArticleToPreview : M.saveToPreview}
      </p>
    );
  }
  if (state === 'typeMissing') {
    return (
      <p className="muted" data-testid="preview-type-missing">
        {M.typeMissing}
      </p>
    );
  }
  if (state === 'unknownType') {
    return (
      <p className="muted" data-testid="preview-unknown-type">
        {M.unknownType(String(item.type))}
      </p>
    );
  }
  return <ReadyPane item={item} kind={kind} type={item.type as PreviewType} advertId={item.id!} />;
}

function ReadyPane(props: { item: ContentItem; kind: ContentKind; type: PreviewType; advertId: number }) {
  const { item, kind, type, advertId } = props;
  const [expanded, setExpanded] = useState(false);
  const [zoom, setZoom] = useState<number | null>(null);
  const [quizStep, setQuizStep] = useState<QuizStep>('answer');
  const [screenIndex, setScreenIndex] = useState(0);
  const [capturing, setCapturing] = useState(false);
  const canvasRef = useRef<HTMLDivElement>(null);
  const capture = useSetAtom(captureScreenshotAtom);
  const expandable = canExpand(type);
  const isExpanded = expanded && expandable;

  // Another type or view opens at its own zoom, from its first step.
  useAdjustOnChange(`${type}|${isExpanded}`, () => {
    setZoom(null);
    setQuizStep('answer');
    setScreenIndex(0);
  });

  const shownZoom = zoom ?? initialZoom(type, isExpanded, PANE_WIDTH);
  const { width, height } = canvasSize(type);

  async function takeCapture() {
    if (!canvasRef.current) return;
    setCapturing(true);
    try {
      await capture({ advertId, element: canvasRef.current });
    } finally {
      setCapturing(false);
    }
  }

  return (
    <div className={`pv-pane ${isExpanded ? 'pv-pane-expanded' : ''}`} data-testid="preview" data-type={type} data-expanded={isExpanded}>
      <div className="pv-toolbar">
        <button
          type="button"
          className="small secondary"
          onClick={() => setZoom(zoomOut(shownZoom))}
          disabled={shownZoom <= ZOOM_MIN}
          aria-label={M.zoomOut}
          data-testid="preview-zoom-out"
        >
          −
        </button>
        <span className="pv-zoom" data-testid="preview-zoom">
          {Math.round(shownZoom * 100)} %
        </span>
        <button
          type="button"
          className="small secondary"
          onClick={() => setZoom(zoomIn(shownZoom))}
          disabled={shownZoom >= ZOOM_MAX}
          aria-label={M.zoomIn}
          data-testid="preview-zoom-in"
        >
          +
        </button>
        {expandable && (
          <button
            type="button"
            className="small secondary"
            aria-pressed={isExpanded}
            onClick={() => setExpanded(!isExpanded)}
            data-testid="preview-expand"
          >
            {isExpanded ? M.collapse : M.expand}
          </button>
        )}
        {kind === 'advert' && canCapture(type, isExpanded) && (
          <button type="button" className="small primary" disabled={capturing} onClick={() => void takeCapture()} data-testid="preview-capture">
            {capturing ? M.capturing : M.capture}
          </button>
        )}
        {kind === 'advert' && hasBatButton(type) && (
          <Link to={batPath(advertId)} className="button secondary small" data-testid="preview-edit-bat">
            {M.editBat}
          </Link>
        )}
      </div>
      {/* Scrollable: reachable by the keyboard, and named (axe: scrollable-region-focusable). */}
      <div className="pv-stage" role="region" aria-label={M.previewStage} tabIndex={0} data-testid="preview-stage">
        <div className="pv-zoomed" style={{ zoom: shownZoom }}>
          <div ref={canvasRef} className="pv-canvas" style={{ width, height: height ?? undefined }} data-testid="preview-canvas">
            <ItemPreview
              item={item}
              kind={kind}
              type={type}
              expanded={isExpanded}
              quizStep={quizStep}
              onQuizStep={setQuizStep}
              screenIndex={screenIndex}
              onScreen={setScreenIndex}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
