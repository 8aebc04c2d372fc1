import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useState } from 'react';
import type { Funnel } from '@shared/contract/adverts';
import type { IpcResult } from '@shared/ipc';
import { ADVERT_SCREEN_MESSAGES as M, ADVERT_SCREEN_NOTICES as N } from '@shared/messages/advert-screens';
import { apiAtom } from '../../../lib/bridge';
import { raiseNoticeAtom } from '../../../lib/notices';
import { dataOf, SEARCH_DEBOUNCE_MS } from '../../../lib/query';
import { useQuery } from '../../../lib/use-query';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { Section } from '../fields';
import type { ContentApi } from '../types';

/**
 * 'Funnels de campagne' (§2.2, §2.8): the funnel the advert belongs to; create one, delete it, append an advert,
 * and set the views of an advert needed before the next one shows.
 */
export function FunnelSection(props: { advertId: number | undefined; makeApi: (call: ReturnType<typeof useApi>) => ContentApi; readOnly: boolean }) {
  const call = useApi();
  const funnels = props.makeApi(call).funnels;
  const raise = useSetAtom(raiseNoticeAtom);
  const [funnel, setFunnel] = useState<Funnel | null>(null);
  const [term, setTerm] = useState('');
  const advertId = props.advertId;

  const handle = useCallback(
    <T,>(result: IpcResult<T>): T | null => {
      if (result.ok) return result.data;
      raise(result.status === 403 ? N.userNotAllowed : N.serverError(result.errorMsg));
      return null;
    },
    [raise],
  );

  const hasFunnels = funnels !== undefined;
  const searchTerm = term.trim();
  const searchable = hasFunnels && searchTerm.length >= 2;
  const { data: found } = useQuery(['adverts.search', searchTerm], async () => (funnels ? dataOf(funnels.search(searchTerm)) : []), {
    enabled: searchable,
    debounceMs: SEARCH_DEBOUNCE_MS,
  });
  // The last answer while the term is long enough, without the funnel's own adverts; nothing under it (derived).
  const results = searchable ? (found ?? []).filter((advert) => !funnel?.adverts.some((step) => step.id === advert.id)) : [];

  // The advert's funnel: another advert's late answer writes nothing (docs/architecture.md, "How a screen loads data").
  useQuery(
    ['funnels.get', advertId],
    async (signal) => {
      const result = await funnels?.get(advertId as number);
      if (result?.ok && !signal.aborted) setFunnel(result.data);
    },
    { enabled: advertId !== undefined && hasFunnels },
  );

  if (!funnels) return null;
  if (advertId === undefined) {
    return (
      <Section id="funnels" title="Funnels de campagne">
        <p className="muted">{M.saveToCreateFunnel}</p>
      </Section>
    );
  }

  return (
    <Section id="funnels" title="Funnels de campagne">
      {!funnel && (
        <>
          <p className="muted" data-testid="funnel-none">
            {M.noFunnel}
          </p>
          {!props.readOnly && (
            <button
              type="button"
              className="secondary"
              onClick={async () => {
                const created = handle(await funnels.create(advertId));
                if (created) {
                  setFunnel(created);
                  raise(N.funnelCreated);
                }
              }}
              data-testid="funnel-create"
            >
              Créer un funnel
            </button>
          )}
        </>
      )}
      {funnel && (
        <div data-testid="funnel">
          <FunnelSteps funnel={funnel} funnels={funnels} readOnly={props.readOnly} handle={handle} onUpdated={setFunnel} />
          {!props.readOnly && (
            <>
              <input
                type="search"
                placeholder="Ajouter une publicité (id ou nom)..."
                aria-label="Ajouter une publicité au funnel"
                value={term}
                onChange={(event) => setTerm(event.target.value)}
                data-testid="funnel-search"
              />
              <ul className="search-results">
                {results.map((advert) => (
                  <li key={advert.id}>
                    <button
                      type="button"
                      className="link"
                      onClick={async () => {
                        const updated = handle(await funnels.append(advertId, funnel.uuid, advert.id));
                        if (updated) {
                          setFunnel(updated);
                          setTerm('');
                        }
                      }}
                      data-testid={`funnel-append-${advert.id}`}
                    >
                      #{advert.id} {advert.name}
                    </button>
                  </li>
                ))}
              </ul>
              <ConfirmButton
                className="link danger"
                message={M.confirmDelete}
                onConfirm={async () => {
                  if (handle(await funnels.remove(advertId, funnel.uuid))) {
                    setFunnel(null);
                    raise(N.funnelDeleted);
                  }
                }}
                testId="funnel-delete"
              >
                Supprimer le funnel
              </ConfirmButton>
            </>
          )}
        </div>
      )}
    </Section>
  );
}

type FunnelsApi = NonNullable<ContentApi['funnels']>;

/** The funnel's adverts in order, each with the views needed before the next one shows (saved on blur). */
function FunnelSteps(props: {
  funnel: Funnel;
  funnels: FunnelsApi;
  readOnly: boolean;
  handle: <T>(result: IpcResult<T>) => T | null;
  onUpdated: (funnel: Funnel) => void;
}) {
  return (
    <ol className="funnel-steps">
      {props.funnel.adverts.map((step, index) => {
        const next = props.funnel.adverts[index + 1];
        return (
          <li key={step.id} data-testid={`funnel-step-${step.id}`}>
            <span>
              #{step.id} {step.name}
            </span>
            {next && (
              <label className="inline">
                vues avant #{next.id} :
                <input
                  type="number"
                  min={0}
                  defaultValue={next.minViews}
                  disabled={props.readOnly}
                  onBlur={async (event) => {
                    const minViews = Number(event.target.value);
                    if (!Number.isInteger(minViews) || minViews < 0 || minViews === next.minViews) return;
                    const updated = props.handle(await props.funnels.updateMinViews(step.id, props.funnel.uuid, next.id, minViews));
                    if (updated) props.onUpdated(updated);
                  }}
                  data-testid={`funnel-minviews-${next.id}`}
                />
              </label>
            )}
          </li>
        );
      })}
    </ol>
  );
}

function useApi() {
  return useAtomValue(apiAtom);
}
