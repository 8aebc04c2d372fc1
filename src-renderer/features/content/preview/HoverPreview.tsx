import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { canvasSize, isPreviewType } from '@shared/rules/preview';
import type { CallApi } from '../../../bridge/api';
import { apiAtom } from '../../../lib/bridge';
import { dataOf } from '../../../lib/query';
import { useQuery } from '../../../lib/use-query';
import type { ContentApi, ContentKind } from '../types';
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
  // Set on the first rest of the pointer: the item then loads once and stays for the next hovers.
  const [wanted, setWanted] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { id, kind, makeApi } = props;

  const { data: item } = useQuery([kind, id], () => dataOf(makeApi(call).load(id)), { enabled: wanted });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const enter = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setOpen(true);
      setWanted(true);
    }, HOVER_DELAY_MS);
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
