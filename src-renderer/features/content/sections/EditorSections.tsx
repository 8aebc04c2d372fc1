import { advertSections, articleSections } from '@shared/rules/advert-screens/editor-sections';
import type { CallApi } from '../../../bridge/api';
import { ArticleCriteriaSection } from './ArticleCriteriaSection';
import { FunnelSection } from './FunnelSection';
import { AudiencesSection } from './AudiencesSection';
import { CtaSection } from './CtaSection';
import { GeneralSection } from './GeneralSection';
import { QuizSection } from './QuizSection';
import { SchedulingSection } from './SchedulingSection';
import { SharingSection } from './SharingSection';
import { TrackingSection } from './TrackingSection';
import { VisualsSection } from './VisualsSection';
import type { ContentApi, ContentItem } from '../types';

/** The accordion sections of the item's type and the user's roles (§2.2, §2.5). */
export function EditorSections(props: {
  draft: ContentItem;
  /** The item as last saved: its scheduling dates are not checked again (scheduleErrors). */
  saved: ContentItem | null;
  kind: 'advert' | 'article';
  roles: readonly string[];
  readOnly: boolean;
  api: ContentApi;
  makeApi: (call: CallApi) => ContentApi;
  patch: (next: Partial<ContentItem>) => void;
  onResetStory: () => void;
}) {
  const { draft, kind, roles, readOnly, api } = props;
  const change = props.patch;
  const sections = kind === 'advert' ? advertSections(draft.type, roles) : articleSections(draft.type);
  const sectionProps = { draft, patch: change, kind, roles };
  return (
    <fieldset className="editor-form" disabled={readOnly}>
      {sections.includes('general') && <GeneralSection {...sectionProps} readOnly={readOnly} />}
      {sections.includes('audiences') &&
        (api.criteria ? (
          <ArticleCriteriaSection draft={draft} patch={change} readOnly={readOnly} search={api.criteria.search} />
        ) : (
          <AudiencesSection {...sectionProps} readOnly={readOnly} />
        ))}
      {sections.includes('visuals') && <VisualsSection {...sectionProps} readOnly={readOnly} />}
      {sections.includes('tracking') && <TrackingSection {...sectionProps} />}
      {sections.includes('cta') && (
        <CtaSection
          {...sectionProps}
          readOnly={readOnly}
          onResetStory={kind === 'advert' ? props.onResetStory : undefined}
          storyScreens={api.storyScreens}
        />
      )}
      {sections.includes('quiz') && <QuizSection {...sectionProps} />}
      {sections.includes('sharing') && <SharingSection {...sectionProps} />}
      {sections.includes('scheduling') && <SchedulingSection {...sectionProps} saved={props.saved} />}
      {sections.includes('funnels') && <FunnelSection advertId={draft.id} makeApi={props.makeApi} readOnly={readOnly} />}
    </fieldset>
  );
}
