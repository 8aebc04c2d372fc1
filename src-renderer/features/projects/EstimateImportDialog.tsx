import type { JSX } from 'react';
import type { Project } from '@shared/contract/projects';

/** The quote import modal of an existing project (built by the estimates helper; mount point for now). */
export function EstimateImportDialog(_props: { projectId: number; onClose(): void; onImported(project: Project): void }): JSX.Element | null {
  return null;
}
