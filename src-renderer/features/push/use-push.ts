import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PushCampaign } from '@shared/contract/push';
import type { IpcFailure } from '@shared/ipc';
import type { JobEvent } from '@shared/jobs';
import { PUSH_NOTICES } from '@shared/messages/push';
import { isSending, PUSH_JOB_KIND } from '@shared/rules/push';
import { apiAtom } from '../../lib/bridge';
import { useJobEvents } from '../../lib/job-events';
import { raiseNoticeAtom } from '../../lib/notices';
import { whereOf, type PushForm } from './form';

/** How often a sending campaign is read again while its page is open, besides the events. */
const RECONCILE_MS = 5000;

/** A campaign with the progress of one of its job events. */
function withEvent(campaign: PushCampaign, event: JobEvent): PushCampaign {
  const { done, sent, failed } = event.progress;
  // A failed attempt's event carries its error; a batch sent clears it (as on the server).
  const error = event.message ?? null;
  return { ...campaign, state: event.state, done: done ?? campaign.done, sent: sent ?? campaign.sent, failed: failed ?? campaign.failed, error };
}

/**
 * The page's calls: count, send, cancel, the history, and the campaign being sent. The job is the server's: the page
 * reads the campaign when it opens, then follows its job events, so closing and reopening the page picks a running
 * campaign up again.
 */
export function usePush() {
  const call = useAtomValue(apiAtom);
  const raise = useSetAtom(raiseNoticeAtom);
  const [counter, setCounter] = useState<number | null>(null);
  const [counting, setCounting] = useState(false);
  const [history, setHistory] = useState<PushCampaign[]>([]);
  const [current, setCurrent] = useState<PushCampaign | null>(null);

  const loadHistory = useCallback(async () => {
    const result = await call('push.list');
    if (!result.ok) return [];
    setHistory(result.data.items);
    return result.data.items;
  }, [call]);

  const finished = useCallback(
    (campaign: PushCampaign) => {
      if (campaign.state === 'done') raise(PUSH_NOTICES.sendDone);
      if (campaign.state === 'failed') raise(PUSH_NOTICES.sendFailed);
      void loadHistory();
    },
    [raise, loadHistory],
  );

  // Progress pushed by the server as batches finish (job events, relayed by main or the web host). The first batch
  // may finish before the page has the send's answer: the latest event of each campaign is kept to be applied then.
  const latestEvents = useRef(new Map<string, JobEvent>());
  useJobEvents(PUSH_JOB_KIND, (event) => {
    latestEvents.current.set(event.id, event);
    if (!current || event.id !== String(current.id) || !isSending(current.state)) return;
    const next = withEvent(current, event);
    setCurrent(next);
    if (!isSending(next.state)) finished(next);
  });
  /** A campaign read from the server, with any newer event already received. */
  const follow = useCallback(
    (campaign: PushCampaign) => {
      const event = latestEvents.current.get(String(campaign.id));
      const next = event && (event.progress.done ?? 0) > campaign.done ? withEvent(campaign, event) : campaign;
      setCurrent(next);
      if (isSending(campaign.state) && !isSending(next.state)) finished(next);
    },
    [finished],
  );

  // Events are not replayed: should the stream drop one, the campaign is read again now and then while it sends.
  useEffect(() => {
    if (!current || !isSending(current.state)) return;
    const timer = setTimeout(async () => {
      const result = await call('push.get', { params: { id: current.id } });
      if (!result.ok) return setCurrent({ ...current });
      follow(result.data);
      if (!isSending(result.data.state)) finished(result.data);
    }, RECONCILE_MS);
    return () => clearTimeout(timer);
  }, [current, call, finished, follow]);

  // On (re)opening: the history, and the campaign still sending, if any.
  useEffect(() => {
    // Loading on arrival is the effect's job here (the history comes from the server), not state derived from props.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void loadHistory().then((items) => {
      const running = items.find((campaign) => isSending(campaign.state));
      if (running) follow(running);
    });
  }, [loadHistory, follow]);

  const count = useCallback(
    async (form: PushForm): Promise<IpcFailure | null> => {
      setCounting(true);
      const result = await call('push.count', { body: { where: whereOf(form) } });
      setCounting(false);
      if (!result.ok) {
        setCounter(null);
        return result;
      }
      setCounter(result.data.counter);
      return null;
    },
    [call],
  );

  const send = useCallback(
    async (form: PushForm): Promise<IpcFailure | null> => {
      const notification = { title: form.title, body: form.body, navigation: form.navigation, customId: form.customId };
      const result = await call('push.send', { body: { notification, where: whereOf(form) } });
      if (!result.ok) return result;
      raise(PUSH_NOTICES.sendStarted);
      follow(result.data);
      void loadHistory();
      return null;
    },
    [call, raise, loadHistory, follow],
  );

  const cancel = useCallback(async () => {
    if (!current) return;
    const result = await call('push.cancel', { params: { id: current.id } });
    if (result.ok) {
      raise(PUSH_NOTICES.cancelled);
      follow(result.data);
      void loadHistory();
    }
  }, [call, current, raise, loadHistory, follow]);

  return { counter, setCounter, counting, count, send, cancel, current, history };
}
