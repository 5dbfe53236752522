// Preloaded (`node --require`) by process-dependencies.test.ts: when the process exits, writes the
// path of every module it loaded (require.cache: the TypeScript files through tsx's require hook,
// the packages they import) to the file LOADED_MODULES_OUT names, one per line.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.LOADED_MODULES_OUT, `${Object.keys(require.cache).join('\n')}\n`);
});
