#!/usr/bin/env node
// Entry of `svc` (the bin of @svc/cli). TypeScript straight from src/ (no build step), through
// tsx's CommonJS require hook, as tools/admin's bin does. `pnpm svc …` runs this bin (the root
// package depends on @svc/cli): no pnpm script banner on stdout, so `--json` output stays one JSON value.
'use strict';

require('tsx/cjs/api').register();
require('../src/main.ts');
