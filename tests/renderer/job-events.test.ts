import { describe, expect, it } from 'vitest';
import type { BackofficeBridge, IpcEvent } from '@shared/ipc';
import type { JobEvent } from '@shared/jobs';
import { subscribeJobEvents } from '../../src-renderer/lib/job-events';

/** A bridge whose events the test pushes, as main (or the web host's event stream) would. */
function eventBridge() {
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  const bridge: BackofficeBridge = {
    invoke: (() => Promise.resolve({ ok: true, data: null })) as BackofficeBridge['invoke'],
    on(event, callback) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(callback as (payload: unknown) => void);
      return () => set.delete(callback as (payload: unknown) => void);
    },
  };
  const push = (event: IpcEvent, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload));
  return { bridge, push, count: () => listeners.get('job-event')?.size ?? 0 };
}

const job = (kind: string, done: number): JobEvent => ({ kind, id: '7', state: 'running', progress: { done }, at: 1 });

describe('useJobEvents subscription', () => {
  it('hands over the events of its kind only, until unsubscribed', () => {
    const { bridge, push, count } = eventBridge();
    const seen: JobEvent[] = [];
    const off = subscribeJobEvents(bridge, 'push-campaign', (event) => seen.push(event));
    push('job-event', job('csv-import', 1));
    push('job-event', job('push-campaign', 2));
    push('files:progress', { jobId: 'x', done: 1, total: null });
    expect(seen).toEqual([job('push-campaign', 2)]);
    off();
    expect(count()).toBe(0);
    push('job-event', job('push-campaign', 3));
    expect(seen).toHaveLength(1);
  });
});
