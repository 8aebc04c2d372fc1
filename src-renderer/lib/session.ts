import { atom } from 'jotai';
import type { SessionInfo } from '@shared/ipc';

/** undefined while the session is being read from main at start; null when signed out. Read by every feature. */
export const sessionAtom = atom<SessionInfo | null | undefined>(undefined);
sessionAtom.debugLabel = 'session.current';

export const rolesAtom = atom((get) => get(sessionAtom)?.roles ?? []);
rolesAtom.debugLabel = 'session.roles';

/** The screen an ended session (expired, unknown to a restarted host) left: sign-in leads back there, once. */
export const endedSessionPathAtom = atom<string | null>(null);
endedSessionPathAtom.debugLabel = 'session.endedPath';
