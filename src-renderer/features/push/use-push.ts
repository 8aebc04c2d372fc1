import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { PUSH_JOB_KIND } from '@shared/rules/push';
import { useJobEvents } from '../../lib/job-events';
import { useQuery } from '../../lib/use-query';
import {
  applyPushEventAtom,
  cancelPushAtom,
  countPushAtom,
  openPushAtom,
  pushCounterAtom,
  pushCountingAtom,
  pushCurrentAtom,
  pushHistoryAtom,
  reconcilePushAtom,
  sendPushAtom,
} from './atoms/campaigns';
import { resetPushComposerAtom } from './atoms/composer';

/** How often a sending campaign is read again while its page is open, besides the events. */
const RECONCILE_MS = 5000;

/**
 * The page's calls (atoms/campaigns.ts): count, send, cancel, the history, and the campaign being sent, followed
 * through its job events while the page is open.
 */
export function usePush() {
  const current = useAtomValue(pushCurrentAtom);
  const open = useSetAtom(openPushAtom);
  const reconcile = useSetAtom(reconcilePushAtom);
  const resetComposer = useSetAtom(resetPushComposerAtom);
  const applyEvent = useSetAtom(applyPushEventAtom);
  useJobEvents(PUSH_JOB_KIND, applyEvent);

  // On (re)opening: the history, and the campaign still sending, if any; leaving empties the form.
  useQuery('push.open', (signal) => open(signal));
  useEffect(() => () => resetComposer(), [resetComposer]);

  // Each answer (or its failure) is a new campaign object: one read per wait while it sends.
  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => void reconcile(), RECONCILE_MS);
    return () => clearTimeout(timer);
  }, [current, reconcile]);

  return {
    counter: useAtomValue(pushCounterAtom),
    setCounter: useSetAtom(pushCounterAtom),
    counting: useAtomValue(pushCountingAtom),
    count: useSetAtom(countPushAtom),
    send: useSetAtom(sendPushAtom),
    cancel: useSetAtom(cancelPushAtom),
    current,
    history: useAtomValue(pushHistoryAtom),
  };
}
