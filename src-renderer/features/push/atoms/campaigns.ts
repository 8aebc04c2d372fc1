import { atom } from 'jotai';
import type { PushCampaign } from '@shared/contract/push';
import type { IpcFailure } from '@shared/ipc';
import type { JobEvent } from '@shared/jobs';
import { PUSH_NOTICES } from '@shared/messages/push';
import { isSending } from '@shared/rules/push';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { whereOf, type PushForm } from '../form';

/**
 * The push page's server state (platform.md §4; docs/push.md), one concern an atom: the last count, the history,
 * and the campaign being sent. The job is the server's: the page reads the campaign when it opens, then follows
 * its job events, so closing and reopening the page picks a running campaign up again.
 */

/** The users the targeting counted (null: not counted since the targeting changed; Send needs a count). */
export const pushCounterAtom = atom<number | null>(null);
pushCounterAtom.debugLabel = 'push.counter';

export const pushCountingAtom = atom(false);
pushCountingAtom.debugLabel = 'push.counting';

/** The campaigns sent, newest first. */
export const pushHistoryAtom = atom<PushCampaign[]>([]);
pushHistoryAtom.debugLabel = 'push.history';

/** The campaign sent from this page (or found sending when it opened), with its progress. */
export const pushCurrentAtom = atom<PushCampaign | null>(null);
pushCurrentAtom.debugLabel = 'push.current';

/**
 * The latest job event of each campaign: the first batch may finish before the page has the send's answer, so its
 * event is kept to be applied then.
 */
export const pushLatestEventsAtom = atom(new Map<string, JobEvent>());
pushLatestEventsAtom.debugLabel = 'push.latestEvents';

/** A campaign with the progress of one of its job events. */
function withEvent(campaign: PushCampaign, event: JobEvent): PushCampaign {
  const { done, sent, failed } = event.progress;
  // A failed attempt's event carries its error; a batch sent clears it (as on the server).
  const error = event.message ?? null;
  return { ...campaign, state: event.state, done: done ?? campaign.done, sent: sent ?? campaign.sent, failed: failed ?? campaign.failed, error };
}

export const loadPushHistoryAtom = atom(null, async (get, set, signal?: AbortSignal): Promise<PushCampaign[]> => {
  const result = await get(apiAtom)('push.list');
  if (!result.ok || signal?.aborted) return [];
  set(pushHistoryAtom, result.data.items);
  return result.data.items;
});
loadPushHistoryAtom.debugLabel = 'push.loadHistory';

/** A campaign that stopped sending: said, and the history read again. */
const finishedAtom = atom(null, (_get, set, campaign: PushCampaign) => {
  if (campaign.state === 'done') set(raiseNoticeAtom, PUSH_NOTICES.sendDone);
  if (campaign.state === 'failed') set(raiseNoticeAtom, PUSH_NOTICES.sendFailed);
  void set(loadPushHistoryAtom);
});
finishedAtom.debugLabel = 'push.finished';

/** A campaign read from the server becomes the current one, with any newer event already received. */
export const followCampaignAtom = atom(null, (get, set, campaign: PushCampaign) => {
  const event = get(pushLatestEventsAtom).get(String(campaign.id));
  const next = event && (event.progress.done ?? 0) > campaign.done ? withEvent(campaign, event) : campaign;
  set(pushCurrentAtom, next);
  if (isSending(campaign.state) && !isSending(next.state)) set(finishedAtom, next);
});
followCampaignAtom.debugLabel = 'push.follow';

/** Progress pushed by the server as batches finish (job events, relayed by main or the web host). */
export const applyPushEventAtom = atom(null, (get, set, event: JobEvent) => {
  get(pushLatestEventsAtom).set(event.id, event);
  const current = get(pushCurrentAtom);
  if (!current || event.id !== String(current.id) || !isSending(current.state)) return;
  const next = withEvent(current, event);
  set(pushCurrentAtom, next);
  if (!isSending(next.state)) set(finishedAtom, next);
});
applyPushEventAtom.debugLabel = 'push.applyEvent';

/** Events are not replayed: should the stream drop one, the sending campaign is read again now and then. */
export const reconcilePushAtom = atom(null, async (get, set) => {
  const current = get(pushCurrentAtom);
  if (!current || !isSending(current.state)) return;
  const result = await get(apiAtom)('push.get', { params: { id: current.id } });
  // Unanswered: a new object, so the page asks again after the same wait.
  if (!result.ok) return set(pushCurrentAtom, { ...current });
  set(followCampaignAtom, result.data);
  if (!isSending(result.data.state)) set(finishedAtom, result.data);
});
reconcilePushAtom.debugLabel = 'push.reconcile';

/**
 * On (re)opening: the history, and the campaign still sending, if any. A read the page's query dropped (the page
 * left) writes nothing: it would follow a campaign after leaving.
 */
export const openPushAtom = atom(null, async (_get, set, signal?: AbortSignal) => {
  const items = await set(loadPushHistoryAtom, signal);
  const running = items.find((campaign) => isSending(campaign.state));
  if (running) set(followCampaignAtom, running);
});
openPushAtom.debugLabel = 'push.open';

export const countPushAtom = atom(null, async (get, set, form: PushForm): Promise<IpcFailure | null> => {
  set(pushCountingAtom, true);
  const result = await get(apiAtom)('push.count', { body: { where: whereOf(form) } });
  set(pushCountingAtom, false);
  set(pushCounterAtom, result.ok ? result.data.counter : null);
  return result.ok ? null : result;
});
countPushAtom.debugLabel = 'push.count';

export const sendPushAtom = atom(null, async (get, set, form: PushForm): Promise<IpcFailure | null> => {
  const notification = { title: form.title, body: form.body, navigation: form.navigation, customId: form.customId };
  const result = await get(apiAtom)('push.send', { body: { notification, where: whereOf(form) } });
  if (!result.ok) return result;
  set(raiseNoticeAtom, PUSH_NOTICES.sendStarted);
  set(followCampaignAtom, result.data);
  void set(loadPushHistoryAtom);
  return null;
});
sendPushAtom.debugLabel = 'push.send';

export const cancelPushAtom = atom(null, async (get, set) => {
  const current = get(pushCurrentAtom);
  if (!current) return;
  const result = await get(apiAtom)('push.cancel', { params: { id: current.id } });
  if (!result.ok) return;
  set(raiseNoticeAtom, PUSH_NOTICES.cancelled);
  set(followCampaignAtom, result.data);
  void set(loadPushHistoryAtom);
});
cancelPushAtom.debugLabel = 'push.cancel';
