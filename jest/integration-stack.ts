// The servers jest/integration-setup.ts started, handed to jest/integration-teardown.ts. jest loads
// the two files as separate modules in the same process; a global is the documented way to pass
// state between them ("global variables defined through globalSetup can only be read in
// globalTeardown").

export interface IntegrationStack {
  /** Stop functions of what setup started (nothing for servers that were already running). */
  stops: Array<() => Promise<void>>;
}

declare global {
  // `var` is required for a property declared on globalThis.
  var __svcIntegrationStack: IntegrationStack | undefined;
}

export function setIntegrationStack(stack: IntegrationStack): void {
  globalThis.__svcIntegrationStack = stack;
}

export function takeIntegrationStack(): IntegrationStack | undefined {
  const stack = globalThis.__svcIntegrationStack;
  globalThis.__svcIntegrationStack = undefined;
  return stack;
}
