import { join } from 'node:path';
import { build } from 'electron-builder';
import { BUILD_DEFAULTS_FILE, bakeBuildDefaults } from '../src-main/services/build-defaults';
import { signingPlan } from './release-signing';

/**
 * `npm run dist`: the company's defaults (update feed and channel, team server) baked from the environment into
 * out/main/build-defaults.json, packed in the app (docs/deployment.md); then electron-builder with signing decided
 * from the environment (release-signing.ts).
 */
for (const line of bakeBuildDefaults(process.env, join(process.cwd(), 'out/main', BUILD_DEFAULTS_FILE))) console.log(line);
const plan = signingPlan(process.env, process.platform);
for (const line of plan.lines) console.log(line);
await build({ config: plan.config as never, publish: 'never' });
