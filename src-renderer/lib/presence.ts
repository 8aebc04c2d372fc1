import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import {
  nextPresence,
  PRESENCE_HEARTBEAT_MS,
  PRESENCE_JOB_KIND,
  presenceEventId,
  presenceSignal,
  presentAt,
  type PresenceRecord,
} from '@shared/rules/presence';
import { apiAtom, bridgeAtom } from './bridge';
import { subscribeJobEvents } from './job-events';
import { sessionAtom } from './session';

type Others = ReadonlyMap<number, { name: string; seenAt: number }>;

/**
 * Who else has this record open (docs/architecture.md, "Versions and conflicts"): announces the caller's own
 * presence while mounted ('joined', 'editing' every PRESENCE_HEARTBEAT_MS, 'left' on leaving or closing the window),
 * answers a newcomer at once so they see who was there first, and returns the names of the others, each dropped
 * when they leave or fall silent. `id` null (a record not saved yet): nothing is announced.
 */
export function usePresence(record: PresenceRecord, id: number | null): string[] {
  const api = useAtomValue(apiAtom);
  const bridge = useAtomValue(bridgeAtom);
  const self = useAtomValue(sessionAtom)?.userId ?? null;
  // Kept with the record they are about: another record's people are never shown after a route change.
  const [others, setOthers] = useState<{ key: string; people: Others }>({ key: '', people: new Map() });
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (id === null || self === null) return;
    // A refusal (a record this account may not edit) or a server out of reach only means no presence line.
    const announce = (state: 'joined' | 'editing' | 'left') => void api('presence.announce', { params: { record, id }, body: { state } });
    const eventId = presenceEventId(record, id);
    const unsubscribe = subscribeJobEvents(bridge, PRESENCE_JOB_KIND, (event) => {
      const signal = event.id === eventId ? presenceSignal(event) : null;
      if (!signal || signal.accountId === self) return;
      setOthers((current) => ({
        key: eventId,
        people: nextPresence(current.key === eventId ? current.people : new Map(), signal, self, Date.now()),
      }));
      setNow(Date.now());
      if (signal.joined) announce('editing');
    });
    announce('joined');
    const heartbeat = setInterval(() => {
      announce('editing');
      setNow(Date.now());
    }, PRESENCE_HEARTBEAT_MS);
    const leave = () => announce('left');
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      clearInterval(heartbeat);
      unsubscribe();
      leave();
    };
  }, [api, bridge, record, id, self]);

  return id !== null && others.key === presenceEventId(record, id) ? presentAt(others.people, now) : [];
}
