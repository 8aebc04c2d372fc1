import { atom } from 'jotai';
import type { Settings } from '@shared/ipc';

/** The settings read from main at start ('settings:get'): environment label and external tool addresses. */
export const settingsAtom = atom<Settings | null>(null);
settingsAtom.debugLabel = 'app.settings';

/** The embedded API runs the demo workspace (public passwords): a banner says so on every page. */
export const demoWorkspaceAtom = atom(false);
demoWorkspaceAtom.debugLabel = 'app.demoWorkspace';

/** The copy of a settings file this start could not read (main set it aside and started on defaults), until dismissed. */
export const settingsSetAsideAtom = atom<string | null>(null);
settingsSetAsideAtom.debugLabel = 'app.settingsSetAside';

/** Where the app works, when its host lets the user change it (« Changer de serveur »); null: fixed at launch. */
export const serverChoiceAtom = atom<'pending' | 'team' | 'local' | null>(null);
serverChoiceAtom.debugLabel = 'app.serverChoice';
