import { useAtomValue } from 'jotai';
import { sessionAtom } from '../../lib/session';

/** Until the advert list exists (spec: / shows the advert list), a welcome page. */
export default function HomePage() {
  const session = useAtomValue(sessionAtom);
  return (
    <div className="centered" data-testid="home">
      <h1>Bienvenue</h1>
      <p>Rôles : {session?.roles.length ? session.roles.join(', ') : 'aucun'}</p>
    </div>
  );
}
