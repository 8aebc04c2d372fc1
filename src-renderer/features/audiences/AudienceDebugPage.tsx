import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useAdjustOnChange } from '../../lib/render-state';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { debugAnswerAtom, debugLoadingAtom, loadDebugAtom } from './atoms/live';
import { useQuery } from '../../lib/use-query';

const userIdOf = (text: string): number | null =>
  /^\d{1,10}$/.test(text.trim()) && Number(text) > 0 && Number(text) <= 2_147_483_647 ? Number(text) : null;

/** The audience debug page, /debug/audiences/{id} (spec §2): the audiences and adverts one app user matches. */
export default function AudienceDebugPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [field, setField] = useState(id);
  const answer = useAtomValue(debugAnswerAtom);
  const loading = useAtomValue(debugLoadingAtom);
  const load = useSetAtom(loadDebugAtom);
  const userId = userIdOf(id);

  // Another id in the address shows in the field.
  useAdjustOnChange(id, () => setField(id));
  useQuery(['audiences.debug', userId], (signal) => load(userId as number, signal), { enabled: userId !== null });

  const submit = () => {
    const wanted = userIdOf(field);
    if (wanted !== null) navigate(`/debug/audiences/${wanted}`);
  };

  const shown = answer && answer.userId === userId ? answer : null;
  return (
    <section className="audience-debug" aria-label="Debug des audiences" data-testid="audience-debug">
      <h1 className="screen-title">Debug des audiences</h1>
      <form
        className="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label className="field">
          <span className="field-label">Identifiant de l'utilisateur</span>
          <input inputMode="numeric" value={field} onChange={(event) => setField(event.target.value)} data-testid="debug-user-id" />
        </label>
        <button type="submit" className="primary" disabled={userIdOf(field) === null} data-testid="debug-submit">
          Afficher
        </button>
      </form>
      {field.trim() && userIdOf(field) === null && <p className="field-error">Un identifiant est un nombre entier positif.</p>}
      {loading && <p className="muted">Chargement…</p>}
      {shown && (
        <div className="audience-columns">
          <section data-testid="debug-audiences">
            <h3>Audiences ({shown.audiences.length})</h3>
            {shown.audiences.length === 0 ? (
              <p className="muted">Aucune audience</p>
            ) : (
              <ul>
                {shown.audiences.map((audience) => (
                  <li key={audience.id} data-testid={`debug-audience-${audience.id}`}>
                    <Link to={`/audiences/${audience.id}`}>{audience.name}</Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section data-testid="debug-adverts">
            <h3>Publicités ({shown.adverts.length})</h3>
            {shown.adverts.length === 0 ? (
              <p className="muted">Aucune publicité</p>
            ) : (
              <ul>
                {shown.adverts.map((advert) => (
                  <li key={advert.id}>
                    <Link to={`/adverts/edit/${advert.id}`}>{advert.name}</Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
