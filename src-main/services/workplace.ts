import type { Settings } from '@shared/ipc';
import { WORKPLACE_MESSAGES } from '@shared/messages';
import { probeTeamServer } from './server-probe';
import type { SettingsStore } from './settings';

/** Where the app works: not chosen yet (the first start asks), the team's server, or this computer's embedded one. */
export type ServerChoice = 'pending' | 'team' | 'local';

export function serverChoiceOf(settings: Settings): ServerChoice {
  if (settings.apiUrl) return 'team';
  return settings.workplace === 'local' ? 'local' : 'pending';
}

/** What a host that offers the choice gives: a question main draws (the desktop app's native dialog), if any. */
export interface WorkplaceOptions {
  /** Asked before the app connects to a team server, in a dialog the page can neither draw nor click. */
  confirm?: (address: string) => Promise<boolean>;
}

export type WorkplaceRequest = { kind: 'local' } | { kind: 'team'; address: string };
export type WorkplaceOutcome = { ok: true; choice: ServerChoice } | { ok: false; message: string; field?: 'address' };

/**
 * Connects the app to the chosen place. A team server is checked first (services/server-probe.ts) and, in the
 * desktop app, confirmed in a native dialog: the page alone never sends the passwords typed next elsewhere. Then the
 * session ends (its tokens stay with the server that issued them: a stored session is only ever presented to its
 * own API) and the settings name the new place. This computer's data stays where it is.
 */
export async function chooseWorkplace(
  request: WorkplaceRequest,
  deps: { settings: SettingsStore; signOut: () => Promise<void>; options: WorkplaceOptions; probe?: typeof probeTeamServer },
): Promise<WorkplaceOutcome> {
  let apiUrl = '';
  if (request.kind === 'team') {
    const checked = await (deps.probe ?? probeTeamServer)(request.address);
    if (!checked.ok) return { ok: false, message: checked.message, field: 'address' };
    if (deps.options.confirm && !(await deps.options.confirm(checked.url))) return { ok: false, message: WORKPLACE_MESSAGES.cancelled };
    apiUrl = checked.url;
  }
  await deps.signOut();
  deps.settings.set({ apiUrl, workplace: request.kind });
  return { ok: true, choice: serverChoiceOf(deps.settings.get()) };
}
