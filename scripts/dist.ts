import { build } from 'electron-builder';
import { signingPlan } from './release-signing';

/** `npm run dist`: electron-builder with signing decided from the environment (release-signing.ts). */
const plan = signingPlan(process.env, process.platform);
for (const line of plan.lines) console.log(line);
await build({ config: plan.config as never, publish: 'never' });
