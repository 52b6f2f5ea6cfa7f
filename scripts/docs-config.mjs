// `npm run docs:config`: writes docs/configuration.md from the settings schemas
// (apps/gateway/src/settings/configuration-reference.ts), through Prettier like every other page.
// The gateway's build must be current: the npm script builds it first when its sources changed.
// configuration-reference.spec.ts fails when the committed page differs from what this writes.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { CONFIGURATION_REFERENCE_FILE, renderConfigurationReference } =
  await import('../dist/apps/gateway/src/settings/configuration-reference.js');
const file = join(root, CONFIGURATION_REFERENCE_FILE);
const page = await format(renderConfigurationReference(), { ...(await resolveConfig(file)), filepath: file });
writeFileSync(file, page);
process.stdout.write(`  wrote ${CONFIGURATION_REFERENCE_FILE}\n`);
