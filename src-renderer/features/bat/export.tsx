import { useAtom, useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect, useRef } from 'react';
import type { BatPage, BatVersion } from '@shared/contract/bat';
import { BAT_MESSAGES as M, BAT_NOTICES } from '@shared/messages/bat';
import { BAT_PDF } from '@shared/rules/bat';
import { bridgeAtom } from '../../lib/bridge';
import { base64OfBlob } from '../../lib/html-capture';
import { uploadBytesAtom } from '../../lib/uploads';
import { batExportCancelledAtom, batExportProgressAtom } from './atoms/view';
import { StaticPage } from './StaticPage';
import type { BatEditor } from './useBatEditor';

const loadPdf = () => import('./pdf');

/**
 * The PDF export (§2.6): what waits is saved, every page is drawn off screen and captured with its progress (Annuler
 * stops between two pages), then main saves bat.pdf through its save dialog (the web host offers a download). With
 * `freeze`, the PDF goes to the server as a new version instead (docs/content.md, BAT proofs).
 */
export function useExport(advertId: number, editor: BatEditor) {
  const bridge = useAtomValue(bridgeAtom);
  const uploadBytes = useSetAtom(uploadBytesAtom);
  const [progress, setProgress] = useAtom(batExportProgressAtom);
  const setCancelled = useSetAtom(batExportCancelledAtom);
  // The PDF builder asks between two pages whether 'Annuler' was pressed meanwhile: the atom as it is then.
  const store = useStore();
  const area = useRef<HTMLDivElement | null>(null);

  // html2canvas and jspdf are half the editor's code: the proof opens without them, and they load once it is idle.
  useEffect(() => {
    const idle = requestIdleCallback(() => void loadPdf());
    return () => cancelIdleCallback(idle);
  }, []);

  const waitForArea = async () => {
    for (let attempt = 0; attempt < 100 && !area.current; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 16));
    return area.current;
  };

  const run = async (freeze: boolean) => {
    if (progress) return;
    setCancelled(false);
    await editor.flush();
    setProgress({ done: 0, total: editor.pages.length });
    try {
      const element = await waitForArea();
      const pages = Array.from(element?.querySelectorAll<HTMLElement>('[data-testid="bat-static-page"]') ?? []);
      const { buildPdf } = await loadPdf();
      const bytes = await buildPdf(
        pages,
        (done) => setProgress({ done, total: pages.length }),
        () => store.get(batExportCancelledAtom),
      );
      if (!bytes) return editor.raise(BAT_NOTICES.info(M.pdfCancelled));
      const pdfBlob = new Blob([bytes as BlobPart], { type: 'application/pdf' });
      if (freeze) {
        const result = await uploadBytes({
          operation: 'bat.freezeVersion',
          fields: { advertId: String(advertId) },
          fileName: BAT_PDF.fileName,
          blob: pdfBlob,
          label: 'PDF',
        });
        if (!result.ok) return editor.raise(BAT_NOTICES.error(result.errorMsg));
        const version = (result.data.answer as { version: BatVersion }).version;
        editor.addVersion(version);
        editor.raise(BAT_NOTICES.success(M.versionFrozen(version.number)));
        return;
      }
      const saved = await bridge.invoke('files:savePdf', { defaultName: BAT_PDF.fileName, contentBase64: await base64OfBlob(pdfBlob) });
      if (!saved.ok) editor.raise(BAT_NOTICES.error(M.pdfFailed(saved.errorMsg)));
      else if (saved.data) editor.raise(BAT_NOTICES.success(M.pdfSaved(saved.data.savedAs)));
    } catch (error) {
      editor.raise(BAT_NOTICES.error(M.pdfFailed(error instanceof Error ? error.message : String(error))));
    } finally {
      setProgress(null);
    }
  };

  return { run, progress, running: progress !== null, cancel: () => setCancelled(true), area };
}

export type Exporter = ReturnType<typeof useExport>;

/** The export's progress per page with Annuler, and the off-screen pages it captures. */
export function ExportOverlay({
  progress,
  onCancel,
  area,
  pages,
}: {
  progress: Exporter['progress'];
  onCancel: () => void;
  area: Exporter['area'];
  pages: BatPage[];
}) {
  if (!progress) return null;
  return (
    <>
      <div className="bat-export-progress" role="status" data-testid="bat-export-progress">
        <span>
          Export du PDF : page {progress.done} / {progress.total}
        </span>
        <progress max={progress.total} value={progress.done} />
        <button type="button" className="secondary" data-testid="bat-export-cancel" onClick={onCancel}>
          Annuler
        </button>
      </div>
      <div className="bat-print-area" ref={area} aria-hidden>
        {pages.map((page) => (
          <StaticPage key={page.page} page={page} />
        ))}
      </div>
    </>
  );
}
