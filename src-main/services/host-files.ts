import type { SavedFile } from '@shared/ipc';

/*
 * The host's file access, declared here below the IPC layer: the services that read picked files (the quote
 * import, uploads) take it as a parameter, and the IPC handlers and both hosts (Electron, web) import it from here
 * (docs/architecture.md, the four layers: a service never imports from the IPC layer above it).
 */

/** Where an export is written, and how the user gets it once written. */
export interface ExportDestination {
  path: string;
  /** The file is complete: what the renderer is told (the saved path, or a download of the web host). */
  finish(): SavedFile;
  /** The export failed or was cancelled: nothing of it is kept. */
  abandon(): void;
}

/** A file picked for an import: on disk (dialog), or a copy of the page's upload (web host). */
export interface PickedFile {
  path: string;
  fileName: string;
  /** The host made this copy: it is deleted once the import is done with it. */
  temporary: boolean;
}

/** How a host reaches the user's files: native dialogs in Electron, the page's uploads and downloads on the web. */
export interface HostFiles {
  /** Null when the user cancelled the save dialog. */
  exportDestination(defaultName: string): Promise<ExportDestination | null>;
  /** Null when the user cancelled the open dialog (or named no upload on the web host). */
  pickCsv(request: { uploadId?: string }): Promise<PickedFile | null>;
  savePdf(defaultName: string, bytes: Uint8Array): Promise<SavedFile | null>;
  /**
   * A file to upload: the open dialog filtered to `formats` (extensions), or on the web host the page's upload
   * named by `uploadId`. Null when the user cancelled.
   */
  pickUpload(request: { uploadId?: string; formats: readonly string[] }): Promise<PickedFile | null>;
}
