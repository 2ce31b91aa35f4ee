/**
 * Writes test/client/planner-api.d.ts: the TypeScript types openapi-typescript generates from the OpenAPI
 * document, as an integrator would. `npm run openapi:client` after a change to the API; a test checks it is current.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clientTypes } from '../test/client/generate.ts';

const target = fileURLToPath(new URL('../test/client/planner-api.d.ts', import.meta.url));
writeFileSync(target, await clientTypes());
console.log(`Wrote ${target}.`);
