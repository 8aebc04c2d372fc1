import type { JSX } from 'react';
import type { Project } from '@shared/contract/projects';

/** The timeline overlay of a project (built by the timeline helper; mount point for now). */
export function TimelineOverlay(_props: { project: Project; onClose(): void }): JSX.Element | null {
  return null;
}
