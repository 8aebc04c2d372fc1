import { atom } from 'jotai';
import type { Settings } from '@shared/ipc';

/** The settings read from main at start ('settings:get'): environment label and external tool addresses. */
export const settingsAtom = atom<Settings | null>(null);
settingsAtom.debugLabel = 'app.settings';

/** The embedded API runs the demo workspace (public passwords): a banner says so on every page. */
export const demoWorkspaceAtom = atom(false);
demoWorkspaceAtom.debugLabel = 'app.demoWorkspace';
