import type { ServerContext } from '../../../context';
import type { DefinitionsWriter } from '../definitions';
import type { AudienceEngine } from '../engine/engine';

/** What every resource's handlers of the audiences feature are built from. */
export interface AudienceFeatureParts {
  context: ServerContext;
  engine: AudienceEngine;
  /** The transaction of a write of definitions, which the engine (and the history) follow. */
  write: DefinitionsWriter;
}
