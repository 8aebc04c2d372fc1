import type { JSX } from 'react';
import type { Project } from '@shared/contract/projects';

/** The comments / briefing sidebar of the project editor (built by the comments helper; mount point for now). */
export function ProjectSidePanel(_props: {
  project: Project;
  open: boolean;
  initialTab: 'comments' | 'briefing';
  onClose(): void;
  onProjectChanged(project: Project): void;
}): JSX.Element | null {
  return null;
}
