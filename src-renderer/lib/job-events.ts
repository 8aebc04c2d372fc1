import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import type { BackofficeBridge } from '@shared/ipc';
import type { JobEvent } from '@shared/jobs';
import { bridgeAtom } from './bridge';

/** Calls `onEvent` with each 'job-event' of `kind` the bridge relays, until the returned function is called. */
export function subscribeJobEvents(bridge: BackofficeBridge, kind: string, onEvent: (event: JobEvent) => void): () => void {
  return bridge.on('job-event', (event) => {
    if (event.kind === kind) onEvent(event);
  });
}

/**
 * Follows the server's events of one job kind (push campaigns, CSV imports) while the component is mounted. The
 * page reads its job's current state with its feature's GET call when it opens, then applies these events (they
 * are not replayed). `onEvent` may change between renders without resubscribing.
 *
 * @public The shared interface of issues 23 (push progress) and 25 (CSV imports), whose screens are built in
 * parallel: until they land, nothing in the app calls it (knip would report it).
 */
export function useJobEvents(kind: string, onEvent: (event: JobEvent) => void): void {
  const bridge = useAtomValue(bridgeAtom);
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  useEffect(() => subscribeJobEvents(bridge, kind, (event) => latest.current(event)), [bridge, kind]);
}
