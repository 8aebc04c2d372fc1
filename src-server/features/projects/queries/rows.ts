import type { TargetStatus } from '@shared/rules/projects';
import type { DelayReason } from '@shared/rules/campaigns';

/** The rows the project and target queries read (projectColumns, targetColumns), in one place both import. */

export interface ProjectRow {
  id: number;
  name: string;
  clientName: string;
  keyAccountId: number | null;
  keyAccountName: string | null;
  actor: string | null;
  actionCode: string | null;
  status: 'draft' | 'active' | 'archived';
  estimateId: string | null;
  createdAt: number;
  isProjectCommented: boolean;
  version: number;
  /** Milliseconds: when and by whom the newest change was made (docs/architecture.md, "Versions and conflicts"). */
  updatedAt: number;
  editorName: string | null;
}

export interface TargetRow {
  id: number;
  projectId: number;
  projectName: string;
  clientName: string;
  position: number;
  actionCode: string | null;
  status: TargetStatus;
  type: string | null;
  advertId: number | null;
  toolId: number | null;
  promoteInSearch: boolean;
  populationCategory: string | null;
  populationSample: string | null;
  populationSize: number | null;
  goalViews: number;
  goalDays: number;
  goalShipments: number;
  startDate: number | null;
  endDate: number | null;
  checkDate: number | null;
  quotationSignedMonth: number | null;
  initialQuotationDate: number | null;
  revenue: number | null;
  releaseDateDiff: number | null;
  delayReason: DelayReason | null;
  revenueDelayImpact: number | null;
  actor: string | null;
  keyAccountId: number | null;
  keyAccountName: string | null;
  comment: string | null;
  isNew: boolean;
  version: number;
  /** Milliseconds: when and by whom the newest change was made (docs/architecture.md, "Versions and conflicts"). */
  updatedAt: number;
  editorName: string | null;
}
