import type { BackofficeBridge, IpcChannel, IpcEvent, IpcEventPayload, IpcRequest, IpcResponses, IpcResult, SavedFile } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { UPLOAD_FORMATS } from '@shared/features';

declare global {
  interface Window {
    backoffice?: BackofficeBridge;
  }
}

function pickCsvFile(accept = '.csv,text/csv'): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.style.display = 'none';
    input.addEventListener('change', () => {
      const file = input.files?.[0] ?? null;
      input.remove();
      resolve(file);
    });
    input.addEventListener('cancel', () => {
      input.remove();
      resolve(null);
    });
    document.body.append(input);
    input.click();
  });
}

function download(saved: SavedFile): void {
  if (!saved.downloadUrl) return;
  const link = document.createElement('a');
  link.href = saved.downloadUrl;
  link.download = saved.savedAs;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * The host refused the page's secret as an unknown session (it restarted: a new secret, no session; docs/security.md):
 * the secret its page carries now, read from the page it serves (`current` if it is gone again). The bridge then
 * follows its event stream again and ends its session the one way every expiry takes ('session:expired': sign in
 * again; the editors' local drafts keep what was typed).
 */
async function servedSecret(current: string): Promise<string> {
  try {
    const page = await (await fetch('/', { credentials: 'same-origin' })).text();
    return /name="backoffice-web-secret" content="([^"]+)"/.exec(page)?.[1] ?? current;
  } catch {
    return current;
  }
}

/**
 * The web host's transport: same channels as the Electron preload, over same-origin HTTP with the page secret.
 * The host keeps one session per browser in an HttpOnly cookie set at sign-in and cleared at sign-out; the event
 * stream is reopened then, so that it belongs to the session the page now has.
 */
function createWebBridge(): BackofficeBridge {
  let secret = document.querySelector<HTMLMetaElement>('meta[name="backoffice-web-secret"]')?.content ?? '';
  let events: EventSource | null = null;
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();

  function openEvents(): void {
    events?.close();
    events = new EventSource(`/__events?secret=${encodeURIComponent(secret)}`);
    for (const event of listeners.keys()) {
      events.addEventListener(event, (message) => {
        const payload = JSON.parse((message as MessageEvent<string>).data) as unknown;
        for (const listener of listeners.get(event) ?? []) listener(payload);
      });
    }
  }

  async function post(channel: string, payload: unknown): Promise<IpcResult<unknown>> {
    let response: Response;
    try {
      response = await fetch(`/__ipc/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-backoffice-secret': secret },
        body: JSON.stringify({ payload }),
        credentials: 'same-origin',
      });
    } catch {
      return { ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable };
    }
    try {
      const result = (await response.json()) as IpcResult<unknown>;
      if (response.status === 401) {
        // The host restarted (servedSecret): its secret now, its event stream, and the one path of an ended session.
        secret = await servedSecret(secret);
        if (events) openEvents();
        for (const listener of listeners.get('session:expired') ?? []) listener({ reason: result.ok ? MESSAGES.sessionExpired : result.errorMsg });
      }
      return result;
    } catch {
      // Not the host's JSON (a proxy's error page, a cut connection): keep the shape the screens expect.
      return { ok: false, status: response.status, errorMsg: MESSAGES.genericError };
    }
  }

  /**
   * The picked file to the host with its progress (XMLHttpRequest: fetch tells nothing of an upload), reported as
   * the job's 'files:progress' so the page's bar moves from the first byte.
   */
  function uploadWithProgress(file: File, jobId: string): Promise<IpcResult<unknown>> {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `/__upload?name=${encodeURIComponent(file.name)}`);
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      xhr.setRequestHeader('x-backoffice-secret', secret);
      xhr.upload.onprogress = (event) => {
        for (const listener of listeners.get('files:progress') ?? [])
          listener({ jobId, done: event.loaded, total: event.lengthComputable ? event.total : file.size });
      };
      xhr.onload = () => {
        try {
          resolve(JSON.parse(xhr.responseText) as IpcResult<unknown>);
        } catch {
          resolve({ ok: false, status: xhr.status, errorMsg: MESSAGES.genericError });
        }
      };
      xhr.onerror = () => resolve({ ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable });
      xhr.send(file);
    });
  }

  async function upload(file: File): Promise<IpcResult<unknown>> {
    try {
      const response = await fetch(`/__upload?name=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-backoffice-secret': secret },
        body: file,
        credentials: 'same-origin',
      });
      return (await response.json()) as IpcResult<unknown>;
    } catch {
      return { ok: false, status: 0, errorMsg: MESSAGES.networkUnreachable };
    }
  }

  return {
    async invoke<C extends IpcChannel>(channel: C, payload?: IpcRequest<C>) {
      let body: unknown = payload;
      if (channel === 'files:previewCsv' && !(payload as { uploadId?: string } | undefined)?.uploadId) {
        // A browser has no open dialog in the host: the page picks the file and streams it to the host first.
        const picked = await pickCsvFile();
        if (!picked) return { ok: true, data: null } as IpcResult<IpcResponses[C]>;
        const uploaded = await upload(picked);
        if (!uploaded.ok) return uploaded as IpcResult<IpcResponses[C]>;
        body = { uploadId: (uploaded.data as { uploadId: string }).uploadId };
      }
      if (
        channel === 'files:upload' &&
        !(payload as { uploadId?: string; folderMarker?: true } | undefined)?.uploadId &&
        !(payload as { folderMarker?: true }).folderMarker
      ) {
        // Same for an upload: the page picks among the operation's formats, the host receives the file first.
        const request = payload as IpcRequest<'files:upload'>;
        const formats = UPLOAD_FORMATS[request.operation] ?? [];
        const picked = await pickCsvFile(
          formats
            .filter((format) => /^[a-z0-9]+$/.test(format))
            .map((format) => `.${format}`)
            .join(','),
        );
        if (!picked) return { ok: true, data: null } as IpcResult<IpcResponses[C]>;
        const uploaded = await uploadWithProgress(picked, request.jobId);
        if (!uploaded.ok) return uploaded as IpcResult<IpcResponses[C]>;
        body = { ...request, uploadId: (uploaded.data as { uploadId: string }).uploadId };
      }
      if (channel === 'files:importEstimates' && !(payload as { uploadId?: string } | undefined)?.uploadId) {
        // The quote export: picked by the page, streamed to the host with its progress, then imported by main.
        const request = payload as IpcRequest<'files:importEstimates'>;
        const picked = await pickCsvFile();
        if (!picked) return { ok: true, data: null } as IpcResult<IpcResponses[C]>;
        const uploaded = await uploadWithProgress(picked, request.jobId);
        if (!uploaded.ok) return uploaded as IpcResult<IpcResponses[C]>;
        body = { ...request, uploadId: (uploaded.data as { uploadId: string }).uploadId };
      }
      const result = await post(channel, body);
      if (result.ok && (channel === 'files:exportCsv' || channel === 'files:savePdf') && result.data) download(result.data as SavedFile);
      // The session cookie changed: the event stream must follow it.
      if (events && (((channel === 'session:signIn' || channel === 'setup:createAdmin') && result.ok) || channel === 'session:signOut')) openEvents();
      return result as IpcResult<IpcResponses[C]>;
    },
    on<E extends IpcEvent>(event: E, callback: (payload: IpcEventPayload<E>) => void) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
        if (events) {
          events.addEventListener(event, (message) => {
            const payload = JSON.parse((message as MessageEvent<string>).data) as unknown;
            for (const listener of listeners.get(event) ?? []) listener(payload);
          });
        }
      }
      if (!events) openEvents();
      const listener = callback as (payload: unknown) => void;
      set.add(listener);
      return () => {
        set!.delete(listener);
      };
    },
  };
}

let bridge: BackofficeBridge | null = null;

/** Whether the page runs in the desktop window (its preload's bridge) rather than in a browser on the web host. */
export function runsInDesktop(): boolean {
  return Boolean(window.backoffice);
}

/** window.backoffice from the Electron preload, or the web host transport. */
export function getBridge(): BackofficeBridge {
  bridge ??= window.backoffice ?? createWebBridge();
  return bridge;
}
