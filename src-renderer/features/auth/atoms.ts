import { atom } from 'jotai';
import type { SessionInfo, Settings } from '@shared/ipc';

/** undefined while the session is being read from main at start; null when signed out. */
export const sessionAtom = atom<SessionInfo | null | undefined>(undefined);
sessionAtom.debugLabel = 'auth.session';

export const rolesAtom = atom((get) => get(sessionAtom)?.roles ?? []);
rolesAtom.debugLabel = 'auth.roles';

export const settingsAtom = atom<Settings | null>(null);
settingsAtom.debugLabel = 'app.settings';
