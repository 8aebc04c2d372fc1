import { atom } from 'jotai';
import type { Settings } from '@shared/ipc';

/** The settings read from main at start ('settings:get'): environment label and external tool addresses. */
export const settingsAtom = atom<Settings | null>(null);
settingsAtom.debugLabel = 'app.settings';
