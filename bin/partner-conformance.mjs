#!/usr/bin/env node
// The command-line entry (`npx partner-conformance …`, `npm test`): registers tsx so that the
// TypeScript sources run as they are, with no build step, then hands over to harness/cli/main.ts.
import { register } from 'tsx/esm/api';

register();
await import('../harness/cli/main.ts');
