const workspace = require('../jest.config.js');

/**
 * jest.config.js narrowed to one of its projects (by displayName), all else kept: reporters, workers,
 * timeout. For `pnpm test:unit` and `pnpm test:integration`, which take paths and jest options after
 * them. Not `jest --selectProjects unit`: that option reads every following word as a project name, so
 * `pnpm test:unit packages/sdk` selected the projects `unit` and `packages/sdk` and ran every unit suite.
 */
module.exports = function oneProject(displayName) {
  const project = workspace.projects.find((candidate) => candidate.displayName === displayName);
  if (project === undefined) throw new Error(`jest.config.js has no project named ${displayName}`);
  // rootDir: this file's folder is jest/, the workspace is its parent.
  return { ...workspace, rootDir: '..', projects: [project] };
};
