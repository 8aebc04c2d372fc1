import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { canvasSize, isPreviewType } from '@shared/rules/preview';
import type { CallApi } from '../../../bridge/api';
import { apiAtom } from '../../../lib/bridge';
import type { ContentApi, ContentItem, ContentKind } from '../types';
import { ItemPreview } from './ItemPreview';
import './preview.css';

/** Hovering this long opens the preview: passing over the column loads nothing. */
const HOVER_DELAY_MS = 250;

/**
 * The list's magnified preview on hover of the id (adverts-articles.md §2.1, §2.4): the item is loaded once the
 * pointer rests on the id, and drawn by the editor's preview components.
 */
export function HoverPreview(props: { id: number; kind: ContentKind; makeApi: (call: CallApi) => ContentApi; children: ReactNode }) {
  const call = useAtomValue(apiAtom);
  const [open, setOpen] = useState(false);
  const [item, setItem] = useState<ContentItem | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { id, kind, makeApi } = props;

  useEffect(() => {
    if (!open || item) return;
    let current = true;
    void makeApi(call)
      .load(id)
      .then((result) => {
        if (current && result.ok) setItem(result.data);
      });
    return () => {
      current = false;
    };
  }, [open, item, id, call, makeApi]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const enter = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), HOVER_DELAY_MS);
  };
  const leave = () => {
    if (timer.current) clearTimeout(timer.current);
    setOpen(false);
  };
  const type = item?.type;

  return (
    <span className="pv-hover" onMouseEnter={enter} onMouseLeave={leave} data-testid={`hover-preview-${id}`}>
      {props.children}
      {open && item && isPreviewType(type) && (
        <span className="pv-hover-card" role="tooltip" data-testid="hover-preview-card" data-type={type}>
          <span className="pv-zoomed">
            <span className="pv-canvas" style={{ display: 'block', width: canvasSize(type).width, height: canvasSize(type).height ?? undefined }}>
              <ItemPreview
                item={item}
                kind={kind}
                type={type}
                expanded={false}
                quizStep="answer"
                onQuizStep={() => undefined}
                screenIndex={0}
                onScreen={() => undefined}
              />
            </span>
          </span>
        </span>
      )}
    </span>
  );
}
