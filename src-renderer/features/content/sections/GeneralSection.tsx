import { openInChoices, SEARCH_TABS } from '@shared/rules/advert-model';
import { ADVERT_TYPES, ARTICLE_TYPES } from '@shared/rules/advert-screens/content-types';
import { weightDisplay, WEIGHT_MAX, WEIGHT_MIN } from '@shared/rules/advert-screens/weight';
import { BannerImageField } from '../MediaFields';
import { Checkbox, Field, NumberInput, Section, Select, TextInput } from '../fields';
import type { ContentItem } from '../types';
import { emptyQuiz, emptyStory, type SectionProps } from './section-props';

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** General (§2.2 'Général'): name, type, weight, views, opening, and the fields of the item's kind and type. */
export function GeneralSection({ draft, patch, kind, readOnly }: SectionProps & { readOnly: boolean }) {
  const type = draft.type ?? '';
  const openIn = openInChoices(type);
  return (
    <Section id="general" title={kind === 'advert' ? 'Général' : 'General'} defaultOpen>
      <div className="grid-2">
        <TextInput field="name" label="Nom" value={draft.name} onChange={(name) => patch({ name })} />
        <Select
          field="type"
          label="Type"
          value={draft.type}
          empty={kind === 'advert' ? '—' : undefined}
          options={options(kind === 'advert' ? ADVERT_TYPES : ARTICLE_TYPES)}
          onChange={(next) => patch({ type: next, ...(next === 'quiz' && !draft.quiz ? { quiz: emptyQuiz(draft.footNote) } : {}) })}
        />
      </div>
      <Field field="weight" label="Poids d'affichage" hint={<span data-testid="weight-display">{weightDisplay(draft.weight)}</span>}>
        <input
          type="range"
          min={WEIGHT_MIN}
          max={WEIGHT_MAX}
          step={1}
          value={draft.weight ?? 5}
          onChange={(event) => patch({ weight: Number(event.target.value) })}
          data-testid="field-weight"
        />
      </Field>
      <div className="grid-2">
        <NumberInput field="maxViews" label="Vues max par utilisateur" value={draft.maxViews} min={0} onChange={(maxViews) => patch({ maxViews })} />
        {openIn.length > 0 && (
          <Select
            field="openIn"
            label="Ouverture"
            value={draft.openIn}
            empty="—"
            options={options(openIn)}
            onChange={(value) => patch({ openIn: value as ContentItem['openIn'] })}
          />
        )}
      </div>
      {kind === 'advert' && <Checkbox field="isFree" label="Gratuit" checked={draft.isFree} onChange={(isFree) => patch({ isFree })} />}
      {kind === 'article' && (
        <div className="grid-2">
          <Checkbox field="isPinned" label="Épinglé" checked={draft.isPinned} onChange={(isPinned) => patch({ isPinned })} />
          <Checkbox field="isNew" label="Nouveau" checked={draft.isNew} onChange={(isNew) => patch({ isNew })} />
          <TextInput
            field="tag.text"
            label="Tag"
            value={draft.tag?.text}
            onChange={(text) => patch({ tag: { tagColor: draft.tag?.tagColor ?? '#66627E', text } })}
          />
          <TextInput
            field="tag.tagColor"
            label="Couleur du tag"
            value={draft.tag?.tagColor}
            onChange={(tagColor) => patch({ tag: { text: draft.tag?.text ?? 'Tag', tagColor } })}
          />
        </div>
      )}
      {type === 'story' && (
        <NumberInput
          field="story.position"
          label="Position de la story"
          value={draft.story?.position}
          min={0}
          onChange={(position) => patch({ story: { ...(draft.story ?? emptyStory()), position } })}
        />
      )}
      {kind === 'advert' && (
        <Checkbox
          field="promoteInSearch"
          label="Promouvoir dans la recherche"
          checked={draft.promoteInSearch}
          onChange={(promoteInSearch) => patch({ promoteInSearch })}
        />
      )}
      {kind === 'advert' && (type === 'search' || draft.promoteInSearch) && (
        <div className="grid-2">
          <NumberInput
            field="search.position"
            label="Position dans la recherche"
            value={draft.search?.position}
            min={0}
            onChange={(position) => patch({ search: { tabs: draft.search?.tabs ?? [], association: draft.search?.association ?? null, position } })}
          />
          <Field field="search.tabs" label="Onglets">
            <span className="checkbox-row">
              {SEARCH_TABS.map((tab) => {
                const tabs = draft.search?.tabs ?? [];
                return (
                  <label key={tab} className="checkbox">
                    <input
                      type="checkbox"
                      checked={tabs.includes(tab)}
                      onChange={(event) =>
                        patch({
                          search: {
                            position: draft.search?.position ?? null,
                            association: draft.search?.association ?? null,
                            tabs: event.target.checked ? [...tabs, tab] : tabs.filter((entry) => entry !== tab),
                          },
                        })
                      }
                      data-testid={`field-search.tabs-${tab}`}
                    />
                    {tab}
                  </label>
                );
              })}
            </span>
          </Field>
        </div>
      )}
      {kind === 'advert' && type === 'tool' && (
        <TextInput field="sonataId" label="Sonata ID (id externe de l'outil)" value={draft.sonataId} onChange={(sonataId) => patch({ sonataId })} />
      )}
      {kind === 'advert' && type === 'banner' && (
        <>
          <TextInput field="bannerLink" label="Lien de la bannière" value={draft.bannerLink} onChange={(bannerLink) => patch({ bannerLink })} />
          <BannerImageField draft={draft} patch={patch} readOnly={readOnly} />
        </>
      )}
    </Section>
  );
}
