import { ChevronLeft, ChevronRight, Plus, Trash2 } from 'lucide-react';
import type { BatEditor } from './useBatEditor';

/** The layers toolbar (§2.6): pick the active layer, add one (it becomes active), delete one while another exists. */
export function LayersBar({ advertId, editor, canWrite }: { advertId: number; editor: BatEditor; canWrite: boolean }) {
  const page = editor.pages[editor.pageIndex];
  if (!page) return null;
  const layers = [...page.layers].sort((a, b) => a.level - b.level);
  return (
    <span className="bat-layers" role="group" aria-label="Calques" data-testid="bat-layers">
      <span className="muted">Calques</span>
      {layers.map((layer) => (
        <button
          key={layer.id}
          type="button"
          className={`bat-chip${layer.id === editor.layerId ? ' active' : ''}`}
          aria-pressed={layer.id === editor.layerId}
          data-testid="bat-layer-button"
          onClick={() => editor.setLayerId(layer.id)}
        >
          {layer.level}
        </button>
      ))}
      {canWrite && (
        <>
          <button
            type="button"
            className="icon-button"
            title="Ajouter un calque"
            aria-label="Ajouter un calque"
            data-testid="bat-add-layer"
            onClick={() => void editor.structural(() => editor.call('bat.newLayer', { params: { advertId }, body: { page: page.page } }), 'layer')}
          >
            <Plus size={14} aria-hidden />
          </button>
          <button
            type="button"
            className="icon-button"
            title="Supprimer le calque"
            aria-label="Supprimer le calque"
            data-testid="bat-delete-layer"
            disabled={layers.length <= 1 || editor.layerId === null}
            onClick={() =>
              void editor.structural(
                () => editor.call('bat.deleteLayer', { params: { advertId }, body: { page: page.page, layerId: editor.layerId! } }),
                'layer',
              )
            }
          >
            <Trash2 size={14} aria-hidden />
          </button>
        </>
      )}
    </span>
  );
}

/** The page pagination (§2.6). */
export function Pagination({ editor, onSelect }: { editor: BatEditor; onSelect(): void }) {
  const go = (index: number) => {
    editor.selectPage(index);
    onSelect();
  };
  return (
    <span className="bat-pagination" role="navigation" aria-label="Pages" data-testid="bat-pagination">
      <button
        type="button"
        className="icon-button"
        aria-label="Page précédente"
        disabled={editor.pageIndex === 0}
        onClick={() => go(editor.pageIndex - 1)}
      >
        <ChevronLeft size={15} aria-hidden />
      </button>
      {editor.pages.map((page, index) => (
        <button
          key={page.page}
          type="button"
          className={`bat-chip${index === editor.pageIndex ? ' active' : ''}`}
          aria-current={index === editor.pageIndex ? 'page' : undefined}
          data-testid="bat-page-button"
          onClick={() => go(index)}
        >
          {page.page}
        </button>
      ))}
      <button
        type="button"
        className="icon-button"
        aria-label="Page suivante"
        disabled={editor.pageIndex >= editor.pages.length - 1}
        onClick={() => go(editor.pageIndex + 1)}
      >
        <ChevronRight size={15} aria-hidden />
      </button>
    </span>
  );
}
