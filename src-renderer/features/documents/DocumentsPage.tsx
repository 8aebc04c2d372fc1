import { formatDate } from '@shared/rules/dates';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import type { StoredFile } from '@shared/contract/storage';
import { STORAGE_MESSAGES } from '@shared/messages/storage';
import { DOCUMENTS_ROOT, ICON_EXTENSIONS, extensionOf, isPreviewable } from '@shared/rules/storage';
import { modalAtom, useConfirm } from '../../lib/modal';
import { UploadProgressList } from '../../lib/uploads';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import {
  createFolderAtom,
  currentFolderAtom,
  deleteFileAtom,
  expandedAtom,
  listingAtom,
  loadingAtom,
  openFolderAtom,
  selectedFileAtom,
  toggleFolderAtom,
  treeAtom,
  uploadDocumentAtom,
} from './atoms';
import { Folder } from 'lucide-react';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Ko`;
  return `${(bytes / (1024 * 1024)).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Mo`;
}

/** Spec §9: html, mp4, ppt, pptx and txt have their own icon; anything else a generic one. */
function FileIcon({ name }: { name: string }) {
  const extension = extensionOf(name);
  const known = (ICON_EXTENSIONS as readonly string[]).includes(extension) || isPreviewable(name);
  return (
    <span className={`file-icon file-icon-${known ? extension : 'file'}`} aria-hidden="true" data-testid={`file-icon-${known ? extension : 'file'}`}>
      {known ? extension.toUpperCase() : '•'}
    </span>
  );
}

function FolderTree({ path, depth }: { path: string; depth: number }) {
  const tree = useAtomValue(treeAtom);
  const expanded = useAtomValue(expandedAtom);
  const current = useAtomValue(currentFolderAtom);
  const toggle = useSetAtom(toggleFolderAtom);
  const open = useSetAtom(openFolderAtom);
  const children = tree[path] ?? [];
  const name = path === DOCUMENTS_ROOT ? 'clients' : path.split('/').pop();
  const isOpen = expanded.has(path);
  return (
    <li role="treeitem" aria-expanded={isOpen} aria-selected={current === path}>
      <div className={current === path ? 'tree-row current' : 'tree-row'} style={{ paddingLeft: depth * 14 }}>
        <button
          type="button"
          className="link tree-toggle"
          aria-label={isOpen ? `Replier ${name}` : `Déplier ${name}`}
          onClick={() => void toggle(path)}
        >
          {isOpen ? '▾' : '▸'}
        </button>
        <button type="button" className="link tree-name" data-testid={`folder-${path}`} onClick={() => void open(path)}>
          <Folder size={14} aria-hidden className="inline-icon" /> {name}
        </button>
      </div>
      {isOpen && children.length > 0 && (
        <ul role="group">
          {children.map((child) => (
            <FolderTree key={child.path} path={child.path} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

function Preview({ file }: { file: StoredFile | null }) {
  const remove = useSetAtom(deleteFileAtom);
  const confirm = useConfirm();
  if (!file) return <p className="muted">{STORAGE_MESSAGES.selectFile}</p>;
  const extension = extensionOf(file.name);
  return (
    <div className="document-preview" data-testid="document-preview">
      <h3 title={file.path}>{file.name}</h3>
      {isPreviewable(file.name) ? (
        extension === 'pdf' ? (
          <iframe src={file.url} title={`Aperçu de ${file.name}`} className="preview-frame" data-testid="preview-pdf" />
        ) : (
          <img src={file.url} alt={`Aperçu de ${file.name}`} className="preview-image" data-testid="preview-image" />
        )
      ) : (
        <div className="preview-none">
          <FileIcon name={file.name} />
          <p className="muted">{STORAGE_MESSAGES.noPreview}</p>
        </div>
      )}
      <dl className="preview-facts">
        <dt>Taille</dt>
        <dd>{formatSize(file.size)}</dd>
        <dt>Modifié le</dt>
        <dd>{formatDate(file.updatedAt / 1000)}</dd>
      </dl>
      <div className="preview-actions">
        <a href={file.url} target="_blank" rel="noreferrer noopener">
          Ouvrir
        </a>
        <button
          type="button"
          className="danger"
          data-testid="delete-file"
          onClick={async () => {
            if (await confirm(STORAGE_MESSAGES.confirmDelete(file.name), { confirm: 'Supprimer', cancel: 'Annuler' })) await remove(file);
          }}
        >
          Supprimer
        </button>
      </div>
    </div>
  );
}

function NewFolderDialog({ onClose }: { onClose: () => void }) {
  const create = useSetAtom(createFolderAtom);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    const failed = await create(name);
    setBusy(false);
    if (failed) setError(failed);
    else onClose();
  };
  return (
    <Dialog
      title="Nouveau dossier"
      testId="new-folder-dialog"
      onCancel={onClose}
      actions={
        <>
          <button type="button" onClick={onClose}>
            Annuler
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void submit()} data-testid="new-folder-submit">
            Créer
          </button>
        </>
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <TextField
          label="Nom du dossier"
          value={name}
          onChange={(value) => (setName(value), setError(null))}
          autoFocus
          error={error}
          testId="new-folder-name"
        />
      </form>
    </Dialog>
  );
}

/** /document/upload: folders of assets/clients, their files, a preview, new folder, upload and delete. */
export default function DocumentsPage() {
  const listing = useAtomValue(listingAtom);
  const loading = useAtomValue(loadingAtom);
  const current = useAtomValue(currentFolderAtom);
  const selected = useAtomValue(selectedFileAtom);
  const select = useSetAtom(selectedFileAtom);
  const open = useSetAtom(openFolderAtom);
  const upload = useSetAtom(uploadDocumentAtom);
  const setModal = useSetAtom(modalAtom);

  useEffect(() => {
    void open(DOCUMENTS_ROOT);
  }, [open]);

  return (
    <section className="documents-page" data-testid="documents-page">
      <header className="page-header">
        <h1>CDN Docs</h1>
        <div className="page-actions">
          <button type="button" onClick={() => setModal(<NewFolderDialog onClose={() => setModal(null)} />)} data-testid="new-folder">
            Nouveau dossier
          </button>
          <button type="button" className="primary" onClick={() => void upload()} data-testid="upload-document">
            Importer un fichier
          </button>
        </div>
      </header>
      <UploadProgressList />
      <div className="documents-panes">
        <nav className="documents-tree" aria-label="Dossiers">
          <ul role="tree">
            <FolderTree path={DOCUMENTS_ROOT} depth={0} />
          </ul>
        </nav>
        <div className="documents-list">
          <p className="documents-path" data-testid="current-folder">
            {current}
          </p>
          {listing && listing.folders.length + listing.files.length === 0 && !loading && <p className="muted">{STORAGE_MESSAGES.emptyFolder}</p>}
          <table className="data-table">
            <thead>
              <tr>
                <th>Nom</th>
                <th>Taille</th>
                <th>Date</th>
              </tr>
            </thead>
            <tbody>
              {listing?.folders.map((folder) => (
                <tr key={folder.path} className="folder-row" onDoubleClick={() => void open(folder.path)}>
                  <td colSpan={3}>
                    <button type="button" className="link" onClick={() => void open(folder.path)} data-testid="folder-row">
                      <Folder size={14} aria-hidden className="inline-icon" /> {folder.name}
                    </button>
                  </td>
                </tr>
              ))}
              {listing?.files.map((file) => (
                <tr key={file.path} className={selected?.path === file.path ? 'selected' : undefined} aria-selected={selected?.path === file.path}>
                  <td>
                    <button type="button" className="link file-name" onClick={() => select(file)} data-testid="file-row">
                      <FileIcon name={file.name} /> {file.name}
                    </button>
                  </td>
                  <td>{formatSize(file.size)}</td>
                  <td data-testid="file-date">{formatDate(file.updatedAt / 1000)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <aside className="documents-preview" aria-label="Aperçu">
          <Preview file={selected} />
        </aside>
      </div>
    </section>
  );
}
