import { ADVERT_SCREEN_MESSAGES as M } from '@shared/messages/advert-screens';
import { Section, TextInput } from '../fields';
import type { SectionProps } from './section-props';

/** Tracking (§2.2): ADMIN only, not for story; the pixel must be one the technical team validated (warning only). */
export function TrackingSection({ draft, patch }: SectionProps) {
  return (
    <Section id="tracking" title="Tracking">
      <TextInput
        field="pixelTrackingUrl"
        label="URL du pixel de tracking"
        value={draft.pixelTrackingUrl}
        onChange={(pixelTrackingUrl) => patch({ pixelTrackingUrl: pixelTrackingUrl || null })}
      />
      <p className="alert warning" data-testid="tracking-warning">
        {M.trackingPixelWarning}
      </p>
    </Section>
  );
}
