import type { LexicalEditor } from 'lexical';
import { Smartphone, X } from 'lucide-react';
import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import ReactGridLayout, { type Layout } from 'react-grid-layout/legacy';
import 'react-grid-layout/css/styles.css';
import type { BatItem, BatLayer } from '@shared/contract/bat';
import {
  ARROW_COLOR,
  ARROW_SELECTED_COLOR,
  BAT_COLUMN_WIDTH,
  BAT_CANVAS,
  BAT_GRID,
  DROPPED_IMAGE_SIZE,
  arrowFromDrag,
  firstCollision,
  placeItem,
} from '@shared/rules/bat';
import { TextItem } from './TextItem';

export const SCREENSHOT_MIME = 'application/x-bat-screenshot';
export const newItemId = () => crypto.randomUUID().slice(0, 8);

/**
 * Where a screenshot dropped at (px, py) canvas pixels goes (§2.6: 6 by 8): the cell under the pointer, kept on
 * the grid; when it would cover another item, the first free place; null when the layer is full.
 */
export function dropPlace(items: BatItem[], px: number, py: number): { x: number; y: number } | null {
  const { margin, rowHeight, cols, maxRows } = BAT_GRID;
  const x = Math.min(cols - DROPPED_IMAGE_SIZE.w, Math.max(0, Math.floor((px - margin) / (BAT_COLUMN_WIDTH + margin))));
  const y = Math.min(maxRows - DROPPED_IMAGE_SIZE.h, Math.max(0, Math.floor((py - margin) / (rowHeight + margin))));
  const candidate = { i: '__drop__', x, y, ...DROPPED_IMAGE_SIZE, type: 'image' as const };
  return firstCollision([...items, candidate]) ? placeItem(items, DROPPED_IMAGE_SIZE) : { x, y };
}

export interface CanvasProps {
  layers: BatLayer[];
  activeLayerId: number | null;
  zoom: number;
  drawing: boolean;
  selected: string | null;
  revision: number;
  onSelect(i: string | null): void;
  onChangeLayer(layerId: number, change: (items: BatItem[]) => BatItem[]): void;
  onArrowDrawn(): void;
  onTextFocus(editor: LexicalEditor, i: string): void;
}

function ImageBox({ item }: { item: BatItem }) {
  const image = <img src={item.url ?? ''} alt="" draggable={false} className="bat-image" />;
  return item.displayApp ? (
    <div className="bat-mobile-frame" data-testid="bat-mobile-frame">
      <div className="bat-mobile-notch" />
      <div className="bat-mobile-screen">{image}</div>
    </div>
  ) : (
    image
  );
}

function ItemActions(props: { item: BatItem; onDelete(): void; onToggleFrame(): void }) {
  return (
    <div className="bat-item-actions">
      {props.item.type === 'image' && (
        <button
          type="button"
          className="icon-button"
          title="Cadre mobile"
          aria-label="Cadre mobile"
          aria-pressed={props.item.displayApp}
          data-testid="bat-item-frame"
          onClick={props.onToggleFrame}
        >
          <Smartphone size={14} aria-hidden />
        </button>
      )}
      <button
        type="button"
        className="icon-button"
        title="Supprimer l'élément"
        aria-label="Supprimer l'élément"
        data-testid="bat-item-delete"
        onClick={props.onDelete}
      >
        <X size={14} aria-hidden />
      </button>
    </div>
  );
}

/** The arrows of a layer (§2.6: red, cyan when selected), start x, y and end w, h in canvas pixels. */
function Arrows(props: {
  layer: BatLayer;
  active: boolean;
  selected: string | null;
  onSelect(i: string): void;
  preview: { x: number; y: number; w: number; h: number } | null;
}) {
  const arrows = props.layer.content.filter((item) => item.type === 'arrow');
  return (
    <svg className="bat-arrows" width={BAT_CANVAS.width} height={BAT_CANVAS.height} viewBox={`0 0 ${BAT_CANVAS.width} ${BAT_CANVAS.height}`}>
      <defs>
        <marker id={`head-red-${props.layer.id}`} viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={ARROW_COLOR} />
        </marker>
        <marker id={`head-cyan-${props.layer.id}`} viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={ARROW_SELECTED_COLOR} />
        </marker>
      </defs>
      {arrows.map((arrow) => {
        const isSelected = props.active && props.selected === arrow.i;
        return (
          <g key={arrow.i} data-testid="bat-arrow" data-selected={isSelected} data-i={arrow.i}>
            <line
              x1={arrow.x}
              y1={arrow.y}
              x2={arrow.w}
              y2={arrow.h}
              stroke={isSelected ? ARROW_SELECTED_COLOR : ARROW_COLOR}
              strokeWidth={4}
              markerEnd={`url(#head-${isSelected ? 'cyan' : 'red'}-${props.layer.id})`}
            />
            {props.active && (
              <line
                x1={arrow.x}
                y1={arrow.y}
                x2={arrow.w}
                y2={arrow.h}
                stroke="transparent"
                strokeWidth={14}
                className="bat-arrow-hit"
                data-testid="bat-arrow-hit"
                onMouseDown={(event) => {
                  event.stopPropagation();
                  props.onSelect(arrow.i);
                }}
              />
            )}
          </g>
        );
      })}
      {props.preview && (
        <line
          x1={props.preview.x}
          y1={props.preview.y}
          x2={props.preview.w}
          y2={props.preview.h}
          stroke={ARROW_COLOR}
          strokeWidth={4}
          strokeDasharray="6 4"
        />
      )}
    </svg>
  );
}

/** The drawing area of arrow mode: mouse-down then mouse-up on the active layer creates the arrow (§2.6). */
function ArrowDrawing(props: {
  zoom: number;
  onDrawn(box: { x: number; y: number; w: number; h: number }): void;
  onPreview(box: { x: number; y: number; w: number; h: number } | null): void;
}) {
  const start = useRef<{ x: number; y: number } | null>(null);
  const point = (event: ReactMouseEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: (event.clientX - rect.left) / props.zoom, y: (event.clientY - rect.top) / props.zoom };
  };
  return (
    <div
      className="bat-arrow-drawing"
      data-testid="bat-arrow-area"
      onMouseDown={(event) => {
        event.preventDefault();
        start.current = point(event);
      }}
      onMouseMove={(event) => {
        if (!start.current) return;
        const end = point(event);
        props.onPreview({ x: start.current.x, y: start.current.y, w: end.x, h: end.y });
      }}
      onMouseUp={(event) => {
        if (!start.current) return;
        const box = arrowFromDrag(start.current, point(event));
        start.current = null;
        props.onPreview(null);
        if (box) props.onDrawn(box);
      }}
    />
  );
}

/**
 * One page of the proof (§2.6): its layers stacked by level, each a react-grid-layout of 36 columns (row height
 * 18, at most 40 rows, margin 10, no vertical compacting, no collisions) on the 1000 × 708 canvas, with its arrows
 * above. Only the active layer takes the mouse.
 */
/**
 * react-draggable (under react-grid-layout) adds an inline <style> at the first drag, which the app's CSP
 * (style-src 'self') refuses; it skips that when an element of its id exists: a <template> (never rendered)
 * takes the place, and bat.css holds the rule instead.
 */
function useDraggableStylePlaceholder() {
  useEffect(() => {
    if (document.getElementById('react-draggable-style-el')) return;
    const placeholder = document.createElement('template');
    placeholder.id = 'react-draggable-style-el';
    document.head.append(placeholder);
  }, []);
}

export function BatCanvas(props: CanvasProps) {
  useDraggableStylePlaceholder();
  // The rectangle under a drag in progress: transient, it stays with the canvas (atoms/view.ts holds the view).
  const [preview, setPreview] = useState<{ x: number; y: number; w: number; h: number } | null>(null);
  const sorted = [...props.layers].sort((a, b) => a.level - b.level);

  const commitLayout = (layer: BatLayer, layout: Layout) => {
    const boxes = new Map(layout.map((box) => [box.i, box]));
    props.onChangeLayer(layer.id, (items) =>
      items.map((item) => {
        const box = boxes.get(item.i);
        if (!box || item.type === 'arrow' || (box.x === item.x && box.y === item.y && box.w === item.w && box.h === item.h)) return item;
        return { ...item, x: box.x, y: box.y, w: box.w, h: box.h };
      }),
    );
  };

  return (
    <div className="bat-canvas-frame" style={{ width: BAT_CANVAS.width * props.zoom, height: BAT_CANVAS.height * props.zoom }}>
      <div
        className="bat-canvas"
        data-testid="bat-canvas"
        style={{ width: BAT_CANVAS.width, height: BAT_CANVAS.height, transform: `scale(${props.zoom})` }}
        onMouseDown={(event) => {
          if (event.target === event.currentTarget || (event.target as HTMLElement).classList.contains('react-grid-layout')) props.onSelect(null);
        }}
      >
        {sorted.map((layer) => {
          const active = layer.id === props.activeLayerId;
          const gridItems = layer.content.filter((item) => item.type !== 'arrow');
          return (
            <div
              key={layer.id}
              className={`bat-layer${active ? ' active' : ''}`}
              style={{ zIndex: layer.level }}
              data-testid="bat-layer"
              data-level={layer.level}
              onDragOver={(event) => {
                if (!active || props.drawing || !event.dataTransfer.types.includes(SCREENSHOT_MIME)) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = 'copy';
              }}
              onDrop={(event) => {
                const url = event.dataTransfer.getData(SCREENSHOT_MIME);
                if (!active || props.drawing || !url) return;
                event.preventDefault();
                const rect = event.currentTarget.getBoundingClientRect();
                const place = dropPlace(layer.content, (event.clientX - rect.left) / props.zoom, (event.clientY - rect.top) / props.zoom);
                if (!place) return;
                const item: BatItem = {
                  i: newItemId(),
                  ...place,
                  ...DROPPED_IMAGE_SIZE,
                  type: 'image',
                  url,
                  displayApp: false,
                  content: null,
                };
                props.onChangeLayer(layer.id, (items) => [...items, item]);
                props.onSelect(item.i);
              }}
            >
              <ReactGridLayout
                width={BAT_CANVAS.width}
                cols={BAT_GRID.cols}
                rowHeight={BAT_GRID.rowHeight}
                maxRows={BAT_GRID.maxRows}
                margin={[BAT_GRID.margin, BAT_GRID.margin]}
                compactType={null}
                preventCollision
                isBounded
                autoSize={false}
                style={{ height: BAT_CANVAS.height }}
                transformScale={props.zoom}
                isDraggable={active && !props.drawing}
                isResizable={active && !props.drawing}
                draggableCancel=".bat-text-editable, .bat-item-actions, button, a"
                layout={gridItems.map((item) => ({ i: item.i, x: item.x, y: item.y, w: item.w, h: item.h }))}
                onDragStop={(layout) => commitLayout(layer, layout)}
                onResizeStop={(layout) => commitLayout(layer, layout)}
              >
                {gridItems.map((item) => (
                  <div
                    key={item.i}
                    className={`bat-item bat-item-${item.type}${active && props.selected === item.i ? ' selected' : ''}`}
                    data-testid={`bat-item-${item.type}`}
                    data-i={item.i}
                    onMouseDown={() => active && props.onSelect(item.i)}
                  >
                    {item.type === 'image' ? (
                      <ImageBox item={item} />
                    ) : (
                      <TextItem
                        key={`${item.i}-${props.revision}`}
                        id={item.i}
                        content={item.content}
                        onFocus={(editor) => props.onTextFocus(editor, item.i)}
                        onChange={(content) =>
                          props.onChangeLayer(layer.id, (items) => items.map((other) => (other.i === item.i ? { ...other, content } : other)))
                        }
                      />
                    )}
                    {active && props.selected === item.i && (
                      <ItemActions
                        item={item}
                        onDelete={() => {
                          props.onChangeLayer(layer.id, (items) => items.filter((other) => other.i !== item.i));
                          props.onSelect(null);
                        }}
                        onToggleFrame={() =>
                          props.onChangeLayer(layer.id, (items) =>
                            items.map((other) => (other.i === item.i ? { ...other, displayApp: !other.displayApp } : other)),
                          )
                        }
                      />
                    )}
                  </div>
                ))}
              </ReactGridLayout>
              <Arrows
                layer={layer}
                active={active && !props.drawing}
                selected={props.selected}
                onSelect={props.onSelect}
                preview={active ? preview : null}
              />
              {active && props.drawing && (
                <ArrowDrawing
                  zoom={props.zoom}
                  onPreview={setPreview}
                  onDrawn={(box) => {
                    const item: BatItem = { i: newItemId(), ...box, type: 'arrow', url: null, displayApp: false, content: null };
                    props.onChangeLayer(layer.id, (items) => [...items, item]);
                    props.onArrowDrawn();
                    props.onSelect(item.i);
                  }}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
