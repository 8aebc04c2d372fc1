import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BackofficeBridge, IpcEvent } from '@shared/ipc';

/** The one thing the renderer sees of Electron: `window.backoffice`. Never the raw ipcRenderer. */
const bridge: BackofficeBridge = {
  invoke: (channel, payload) => ipcRenderer.invoke('backoffice:invoke', channel, payload),
  on(event, callback) {
    const listener = (_event: IpcRendererEvent, name: IpcEvent, payload: unknown) => {
      if (name === event) (callback as (payload: unknown) => void)(payload);
    };
    ipcRenderer.on('backoffice:event', listener);
    return () => {
      ipcRenderer.removeListener('backoffice:event', listener);
    };
  },
};

contextBridge.exposeInMainWorld('backoffice', bridge);
