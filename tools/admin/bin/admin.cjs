#!/usr/bin/env node
// Entry of `pnpm admin <command>` from the workspace root. It is a bin (linked into the root's
// node_modules/.bin through the root devDependency on @svc/admin), not a root package.json script:
// pnpm prints a "> capability-service@… admin" banner on stdout before every script it runs,
// which would break the CLI's promise of exactly one JSON value on stdout. `pnpm <name>` with no
// script of that name runs the bin instead, without a banner.
'use strict';

// TypeScript straight from src/ (no build step), through tsx's CommonJS require hook.
require('tsx/cjs/api').register();
require('../src/main.ts');
