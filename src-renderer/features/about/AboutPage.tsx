import { useAtomValue } from 'jotai';
import type { AppInfo } from '@shared/ipc';
import { DESKTOP_MESSAGES, HOST_MESSAGES, WORKPLACE_MESSAGES, WORKPLACE_NOTICES, withText } from '@shared/messages';
import { DIAGNOSTICS_MESSAGES, DIAGNOSTICS_NOTICES, UPDATE_MESSAGES } from '@shared/messages/diagnostics';
import { formatDateTime } from '@shared/rules/dates';
import { POLICY_MESSAGES } from '@shared/messages/workplace';
import { bridgeAtom } from '../../lib/bridge';
import { showNotice } from '../../lib/notices';
import { sessionAtom } from '../../lib/session';
import { useQuery } from '../../lib/use-query';

/** When the installed app last checked its feed and what came of it; why nothing checks otherwise. */
function lastCheckText(updates: NonNullable<AppInfo['updates']>): string {
  if (updates.checker === 'browser') return UPDATE_MESSAGES.browser;
  if (updates.checker === 'not-installed') return UPDATE_MESSAGES.notInstalled;
  if (!updates.lastCheck) return UPDATE_MESSAGES.notCheckedYet;
  const when = formatDateTime(Date.parse(updates.lastCheck.at) / 1000);
  return UPDATE_MESSAGES.lastCheck(when, UPDATE_MESSAGES.outcomes[updates.lastCheck.outcome]);
}

/**
 * Loaded lazily (spec §2): version, API address, database kind, and the roles of the session (the home page
 * showed them before it became the advert list); where the logs are, and the diagnostics for support.
 */
export default function AboutPage() {
  const session = useAtomValue(sessionAtom);
  const bridge = useAtomValue(bridgeAtom);
  // What the host says of itself, read on arrival through the loader (a failed read shows nothing).
  const { data: host } = useQuery('about', async (): Promise<{ info: AppInfo | null; logDir: string | null }> => {
    const [info, diagnostics] = await Promise.all([bridge.invoke('app:info'), bridge.invoke('app:diagnostics')]);
    return { info: info.ok ? info.data : null, logDir: diagnostics.ok ? diagnostics.data.logDir : null };
  });
  const info = host?.info ?? null;
  const logDir = host?.logDir ?? null;
  async function copyDiagnostics() {
    const result = await bridge.invoke('app:diagnostics');
    if (!result.ok) return showNotice({ ...DIAGNOSTICS_NOTICES.copyFailed, text: result.errorMsg });
    try {
      await navigator.clipboard.writeText(result.data.text);
      showNotice(DIAGNOSTICS_NOTICES.copied);
    } catch {
      showNotice(DIAGNOSTICS_NOTICES.copyFailed);
    }
  }
  async function openLogFolder() {
    const result = await bridge.invoke('app:openLogFolder');
    if (!result.ok) showNotice(logDir ? withText(WORKPLACE_NOTICES.openLogsFailed(logDir), result.errorMsg) : WORKPLACE_NOTICES.noLogFolder);
  }
  return (
    <div className="about" data-testid="about">
      <h1>À propos</h1>
      <p data-testid="about-roles">Rôles : {session?.roles.length ? session.roles.join(', ') : 'aucun'}</p>
      {info && (
        <dl>
          <dt>Version</dt>
          <dd data-testid="about-version">{info.version}</dd>
          <dt>Serveur</dt>
          <dd data-testid="about-api">{info.apiUrl}</dd>
          <dt>Base de données</dt>
          <dd data-testid="about-database">{info.databaseKind}</dd>
          <dt>Application</dt>
          <dd>{info.host === 'electron' ? 'Bureau' : 'Navigateur'}</dd>
          <dt>{DIAGNOSTICS_MESSAGES.logsTitle}</dt>
          <dd data-testid="about-logs">{logDir === null ? '' : logDir || DIAGNOSTICS_MESSAGES.logsOnConsole}</dd>
          {info.updates && (
            <>
              <dt>{UPDATE_MESSAGES.feedTitle}</dt>
              <dd data-testid="about-update-feed">{info.updates.feed || UPDATE_MESSAGES.noFeed}</dd>
              <dt>{UPDATE_MESSAGES.channelTitle}</dt>
              <dd data-testid="about-update-channel">{UPDATE_MESSAGES.channels[info.updates.channel]}</dd>
              <dt>{UPDATE_MESSAGES.lastCheckTitle}</dt>
              <dd data-testid="about-update-last-check">{lastCheckText(info.updates)}</dd>
            </>
          )}
        </dl>
      )}
      <button type="button" className="secondary" onClick={() => void copyDiagnostics()} data-testid="about-copy-diagnostics">
        {DIAGNOSTICS_MESSAGES.copy}
      </button>
      {info?.lockedSettings && (
        <section data-testid="about-locked">
          <h2>{POLICY_MESSAGES.title}</h2>
          <ul>
            {info.lockedSettings.map(({ key, value, source }) => (
              <li key={key}>{POLICY_MESSAGES.lockedEntry(key, value, source)}</li>
            ))}
          </ul>
        </section>
      )}
      {logDir && (
        <button type="button" className="secondary" onClick={() => void openLogFolder()} data-testid="about-open-logs">
          {WORKPLACE_MESSAGES.openLogs}
        </button>
      )}
      {info && session && !session.persistent && (
        <p className="muted" data-testid="about-session-persistence">
          {info.host === 'web' ? HOST_MESSAGES.webSessionInMemory : DESKTOP_MESSAGES.sessionNotPersistent}
        </p>
      )}
    </div>
  );
}
