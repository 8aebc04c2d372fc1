import { atom } from 'jotai';
import type { BackofficeBridge } from '@shared/ipc';
import { getBridge } from '../bridge';
import { apiOver } from '../bridge/api';

const bridgeOverrideAtom = atom<BackofficeBridge | null>(null);
bridgeOverrideAtom.debugLabel = 'lib.bridgeOverride';

/**
 * The one path to the bridge: atoms and components alike go through this atom (`get(apiAtom)`,
 * `useAtomValue(bridgeAtom)`), never through `getBridge()`. It is the app's (preload or web transport) unless a
 * store was given another one, as the renderer's atom tests do with an in-memory bridge.
 */
export const bridgeAtom = atom(
  (get) => get(bridgeOverrideAtom) ?? getBridge(),
  (_get, set, bridge: BackofficeBridge) => set(bridgeOverrideAtom, bridge),
);
bridgeAtom.debugLabel = 'lib.bridge';

/** The contract's typed call (bridge/api.ts, apiOver) over the store's bridge: `get(apiAtom)('admin.roles')`. */
export const apiAtom = atom((get) => apiOver(get(bridgeAtom)));
apiAtom.debugLabel = 'lib.api';
