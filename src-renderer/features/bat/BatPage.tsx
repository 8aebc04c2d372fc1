import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { BatScreenshot } from '@shared/contract/bat';
import { PREVIEW_MESSAGES as M } from '@shared/messages/previews';
import { formatDateTime } from '@shared/rules/dates';
import { apiAtom } from '../../lib/bridge';
import './bat.css';

type BatState =
  { status: 'loading' } | { status: 'notFound' } | { status: 'error'; message: string } | { status: 'ready'; screenshots: BatScreenshot[] };

/**
 * /advert/bat/{advertId} (adverts-articles.md §2.6): for now a placeholder listing the advert's preview captures;
 * the proof editor itself (pages, layers, arrows, PDF export) is a later issue. Back goes to the advert's editor.
 */
export default function BatPage() {
  const { advertId: rawId } = useParams();
  const advertId = Number(rawId);
  const valid = Number.isInteger(advertId) && advertId > 0;
  const call = useAtomValue(apiAtom);
  // The answer for the advert it was asked for: another advert shows 'loading' until its own answer comes.
  const [answer, setAnswer] = useState<{ advertId: number; state: BatState } | null>(null);
  const state: BatState = answer?.advertId === advertId ? answer.state : { status: 'loading' };

  useEffect(() => {
    if (!valid) return;
    let current = true;
    void call('bat.listScreenshots', { params: { advertId } }).then((result) => {
      if (!current) return;
      if (result.ok) setAnswer({ advertId, state: { status: 'ready', screenshots: result.data.screenshots } });
      else if (result.status === 404) setAnswer({ advertId, state: { status: 'notFound' } });
      else setAnswer({ advertId, state: { status: 'error', message: result.errorMsg } });
    });
    return () => {
      current = false;
    };
  }, [call, advertId, valid]);

  if (!valid || state.status === 'notFound') {
    return (
      <div className="centered" data-testid="bat-not-found">
        <p className="big-mark">404</p>
        <p>{M.advertNotFound}</p>
      </div>
    );
  }

  return (
    <section className="bat-page" data-testid="bat-page">
      <div className="editor-toolbar">
        <Link to={`/adverts/edit/${advertId}`} className="back-link" data-testid="bat-back">
          {M.backToAdvert}
        </Link>
        <h1>{M.batTitle(advertId)}</h1>
      </div>
      <p className="alert info" data-testid="bat-coming-later">
        {M.batComingLater}
      </p>
      <h2>{M.batScreenshots}</h2>
      {state.status === 'loading' && <p className="muted">Chargement…</p>}
      {state.status === 'error' && <p className="alert warning">{state.message}</p>}
      {state.status === 'ready' && state.screenshots.length === 0 && (
        <p className="muted" data-testid="bat-empty">
          {M.batMissing}
        </p>
      )}
      {state.status === 'ready' && state.screenshots.length > 0 && (
        <ul className="bat-screenshots" data-testid="bat-screenshots">
          {state.screenshots.map((shot) => (
            <li key={shot.id} className="bat-screenshot" data-testid="bat-screenshot">
              <a href={shot.imgPath} target="_blank" rel="noreferrer">
                <img src={shot.imgPath} alt={`Capture du ${formatDateTime(shot.createdAt / 1000)}`} />
              </a>
              <span className="muted">{formatDateTime(shot.createdAt / 1000)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
