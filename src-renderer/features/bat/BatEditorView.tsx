import type { LexicalEditor } from 'lexical';
import { ArrowUpRight, FilePlus2, FileMinus2, FileDown, ImagePlus, Images, Type, ZoomIn, ZoomOut } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { BatItem } from '@shared/contract/bat';
import { BAT_NOTICES } from '@shared/messages/bat';
import { BAT_ZOOM, DROPPED_IMAGE_SIZE, NEW_TEXT_SIZE, clampBatZoom, fittingBatZoom, placeItem } from '@shared/rules/bat';
import { batDrawingAtom, batLibraryOpenAtom, batSelectedItemAtom, batStackedAtom, batZoomAtom } from './atoms/view';
import { BatCanvas, newItemId } from './BatCanvas';
import { ExportOverlay, useExport, type Exporter } from './export';
import { LayersBar, Pagination } from './LayersBar';
import { ScreenshotLibrary } from './ScreenshotLibrary';
import { TextToolbar } from './TextToolbar';
import type { BatEditor } from './useBatEditor';
import { VersionsPanel } from './VersionsPanel';
import { useAtom, useSetAtom } from 'jotai';
import { uploadFileAtom } from '../../lib/uploads';

function ToolButton(props: { label: string; testId: string; onClick(): void; children: ReactNode; disabled?: boolean; pressed?: boolean }) {
  return (
    <button
      type="button"
      className="bat-tool"
      title={props.label}
      aria-label={props.label}
      aria-pressed={props.pressed}
      data-testid={props.testId}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

const isEditing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Escape, Backspace on an arrow, undo and redo (§2.6; undo / redo beyond the spec). */
function useEditorKeys(handlers: { escape(): void; backspace(): boolean; undo(): void; redo(): void }) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') return handlers.escape();
      if (isEditing(event.target)) return;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        if (event.shiftKey) handlers.redo();
        else handlers.undo();
      } else if (mod && event.key.toLowerCase() === 'y') {
        event.preventDefault();
        handlers.redo();
      } else if (event.key === 'Backspace' && handlers.backspace()) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handlers]);
}

/** The right column: the screenshot library (§2.6) and the frozen versions (docs/content.md, BAT proofs). */
function BatSide(props: {
  advertId: number;
  editor: BatEditor;
  canWrite: boolean;
  exporter: Exporter;
  libraryOpen: boolean;
  onAdd(url: string): void;
}) {
  const { advertId, editor, canWrite, exporter, libraryOpen } = props;
  return (
    <aside className="bat-side">
      {libraryOpen && (
        <section>
          <h2>Captures de la preview</h2>
          <ScreenshotLibrary
            screenshots={editor.doc?.screenshots ?? []}
            canWrite={canWrite}
            onAdd={props.onAdd}
            onDelete={async (shot) => {
              const result = await editor.call('bat.deleteScreenshot', { params: { advertId, screenshotId: shot.id } });
              if (!result.ok) return editor.raise(BAT_NOTICES.error(result.errorMsg));
              editor.setScreenshots(result.data.screenshots);
              editor.raise(BAT_NOTICES.imageDeleted);
            }}
          />
        </section>
      )}
      <VersionsPanel
        versions={editor.doc?.versions ?? []}
        canWrite={canWrite}
        busy={exporter.running}
        onFreeze={() => void exporter.run(true)}
        onMove={async (version, state) => {
          const result = await editor.call('bat.setVersionState', { params: { advertId, versionId: version.id }, body: { state } });
          if (!result.ok) return editor.raise(BAT_NOTICES.error(result.errorMsg));
          editor.replaceVersion(result.data);
        }}
      />
    </aside>
  );
}

/** The widths of the tools' and side panel's columns, each with its gap, as .bat-editor's grid sets them (bat.css). */
function columnWidths(element: HTMLElement): { tools: number; side: number } {
  const style = getComputedStyle(element);
  const gap = Number.parseFloat(style.columnGap) || 0;
  const width = (name: string) => (Number.parseFloat(style.getPropertyValue(name)) || 0) + gap;
  return { tools: width('--bat-tools-width'), side: width('--bat-side-width') };
}

/**
 * Where the editor's width puts the side panel: beside the page while the page fits there at 70 % at least, under it
 * otherwise; and the zoom the page opens at (the largest that fits, measured once: the user's zoom is then theirs).
 */
function useEditorLayout(editorRef: RefObject<HTMLDivElement | null>) {
  const [zoom, setZoom] = useAtom(batZoomAtom);
  const [stacked, setStacked] = useAtom(batStackedAtom);
  useLayoutEffect(() => {
    const element = editorRef.current;
    if (!element) return;
    const measure = (first: boolean) => {
      const width = element.clientWidth;
      const { tools, side } = columnWidths(element);
      const beside = fittingBatZoom(width - tools - side);
      setStacked(beside === null);
      if (first) setZoom(beside ?? fittingBatZoom(width - tools) ?? BAT_ZOOM.min);
    };
    measure(true);
    const observer = new ResizeObserver(() => measure(false));
    observer.observe(element);
    return () => observer.disconnect();
  }, [editorRef, setStacked, setZoom]);
  return { zoom, setZoom, stacked };
}

/** The editor itself (§2.6): left toolbar, zoom, layers, pagination, rich-text toolbar, the page, the library. */
export function BatEditorView({ advertId, editor, canWrite }: { advertId: number; editor: BatEditor; canWrite: boolean }) {
  const editorRef = useRef<HTMLDivElement>(null);
  const { zoom, setZoom, stacked } = useEditorLayout(editorRef);
  const [drawing, setDrawing] = useAtom(batDrawingAtom);
  const [selected, setSelected] = useAtom(batSelectedItemAtom);
  const [textEditor, setTextEditor] = useState<LexicalEditor | null>(null); // the mounted text's Lexical instance, not feature state
  const [libraryOpen, setLibraryOpen] = useAtom(batLibraryOpenAtom);
  const upload = useSetAtom(uploadFileAtom);
  const exporter = useExport(advertId, editor);
  const page = editor.pages[editor.pageIndex];
  const layer = page?.layers.find((l) => l.id === editor.layerId) ?? page?.layers[0];
  const selectedItem = layer?.content.find((item) => item.i === selected) ?? null;

  const addItem = (item: Omit<BatItem, 'i' | 'x' | 'y'>) => {
    if (!layer) return;
    const place = placeItem(layer.content, { w: item.w, h: item.h });
    if (!place) return editor.raise(BAT_NOTICES.error("Il n'y a plus de place libre sur ce calque."));
    const added = { ...item, ...place, i: newItemId() };
    editor.changeLayer(layer.id, (items) => [...items, added]);
    setSelected(added.i);
  };
  const addImage = (url: string) => addItem({ ...DROPPED_IMAGE_SIZE, type: 'image', url, displayApp: false, content: null });

  useEditorKeys({
    escape: () => (drawing ? setDrawing(false) : selectedItem?.type === 'arrow' ? setSelected(null) : undefined),
    backspace: () => {
      if (!layer || selectedItem?.type !== 'arrow' || !canWrite) return false;
      editor.changeLayer(layer.id, (items) => items.filter((item) => item.i !== selectedItem.i));
      setSelected(null);
      return true;
    },
    undo: editor.undo,
    redo: editor.redo,
  });

  const importImage = async () => {
    const result = await upload({ operation: 'bat.uploadScreenshot', fields: { advertId: String(advertId) }, label: 'Image' });
    if (!result.ok) return editor.raise(BAT_NOTICES.error(result.errorMsg));
    if (!result.data) return;
    const answer = result.data.answer as {
      webpath: string[];
      screenshots: typeof editor.doc extends null ? never : NonNullable<typeof editor.doc>['screenshots'];
    };
    editor.setScreenshots(answer.screenshots);
    addImage(answer.webpath[0]);
    editor.raise(BAT_NOTICES.imageImported);
  };

  return (
    <div className={stacked ? 'bat-editor stacked' : 'bat-editor'} data-testid="bat-editor" ref={editorRef}>
      <nav className="bat-tools" aria-label="Outils du BAT">
        <ToolButton
          label="Ajouter un texte"
          testId="bat-add-text"
          disabled={!canWrite}
          onClick={() => addItem({ ...NEW_TEXT_SIZE, type: 'text', url: null, displayApp: false, content: null })}
        >
          <Type size={18} aria-hidden />
        </ToolButton>
        <ToolButton label="Ajouter une flèche" testId="bat-add-arrow" disabled={!canWrite} pressed={drawing} onClick={() => setDrawing((d) => !d)}>
          <ArrowUpRight size={18} aria-hidden />
        </ToolButton>
        <ToolButton label="Importer une image" testId="bat-import-image" disabled={!canWrite} onClick={() => void importImage()}>
          <ImagePlus size={18} aria-hidden />
        </ToolButton>
        <ToolButton
          label="Ajouter une page"
          testId="bat-add-page"
          disabled={!canWrite}
          onClick={() => void editor.structural(() => editor.call('bat.newPage', { params: { advertId } }), 'page')}
        >
          <FilePlus2 size={18} aria-hidden />
        </ToolButton>
        <ToolButton
          label="Supprimer la page"
          testId="bat-delete-page"
          disabled={!canWrite || editor.pages.length <= 1}
          onClick={async () => {
            if (await editor.structural(() => editor.call('bat.deletePage', { params: { advertId }, body: { page: page.page } }), 'keep'))
              editor.raise(BAT_NOTICES.pageDeleted);
          }}
        >
          <FileMinus2 size={18} aria-hidden />
        </ToolButton>
        <ToolButton label="Captures de la preview" testId="bat-library-toggle" pressed={libraryOpen} onClick={() => setLibraryOpen((o) => !o)}>
          <Images size={18} aria-hidden />
        </ToolButton>
        <ToolButton label="Exporter en PDF" testId="bat-export" disabled={exporter.running} onClick={() => void exporter.run(false)}>
          <FileDown size={18} aria-hidden />
        </ToolButton>
      </nav>
      <div className="bat-main">
        <div className="bat-bar">
          <span className="bat-zoom">
            <button
              type="button"
              className="icon-button"
              aria-label="Réduire"
              data-testid="bat-zoom-out"
              disabled={zoom <= BAT_ZOOM.min}
              onClick={() => setZoom((z) => clampBatZoom(z - BAT_ZOOM.step))}
            >
              <ZoomOut size={15} aria-hidden />
            </button>
            <span data-testid="bat-zoom">{Math.round(zoom * 100)} %</span>
            <button
              type="button"
              className="icon-button"
              aria-label="Agrandir"
              data-testid="bat-zoom-in"
              disabled={zoom >= BAT_ZOOM.max}
              onClick={() => setZoom((z) => clampBatZoom(z + BAT_ZOOM.step))}
            >
              <ZoomIn size={15} aria-hidden />
            </button>
          </span>
          <LayersBar advertId={advertId} editor={editor} canWrite={canWrite} />
          <Pagination editor={editor} onSelect={() => setSelected(null)} />
        </div>
        {canWrite && <TextToolbar editor={selectedItem?.type === 'text' ? textEditor : null} />}
        {drawing && (
          <p className="bat-hint" data-testid="bat-arrow-mode">
            Tracez la flèche sur la page (Échap pour annuler).
          </p>
        )}
        <div className="bat-stage">
          {page && (
            <BatCanvas
              layers={page.layers}
              activeLayerId={canWrite ? (layer?.id ?? null) : null}
              zoom={zoom}
              drawing={drawing}
              selected={selected}
              revision={editor.revision}
              onSelect={setSelected}
              onChangeLayer={editor.changeLayer}
              onArrowDrawn={() => setDrawing(false)}
              onTextFocus={(lexical, i) => {
                setTextEditor(lexical);
                setSelected(i);
              }}
            />
          )}
        </div>
      </div>
      <BatSide advertId={advertId} editor={editor} canWrite={canWrite} exporter={exporter} libraryOpen={libraryOpen} onAdd={addImage} />
      <ExportOverlay progress={exporter.progress} onCancel={exporter.cancel} area={exporter.area} pages={editor.pages} />
    </div>
  );
}
