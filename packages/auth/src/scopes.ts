import { Scope } from '@svc/contracts';

// Scopes are the 9 names of spec §5.3, defined once in @svc/contracts (the `Scope` enum).

/** Thrown when a scope name is not one of spec §5.3's; the message names it and lists the valid ones. */
export class UnknownScopeError extends Error {
  override readonly name = 'UnknownScopeError';

  constructor(
    readonly unknownScopes: readonly string[],
    readonly validScopes: readonly string[] = allScopes(),
  ) {
    const plural = unknownScopes.length === 1 ? '' : 's';
    super(`unknown scope${plural}: ${unknownScopes.join(', ')} (valid scopes: ${validScopes.join(', ')})`);
  }
}

/** Every valid scope, in the order the contracts declare them. */
export function allScopes(): Scope[] {
  return [...Scope.options];
}

export function isScope(value: string): value is Scope {
  return Scope.safeParse(value).success;
}

/**
 * Validates scope names (trimmed, duplicates dropped, order kept). Throws UnknownScopeError naming
 * every unknown one, so an operator sees all mistakes at once.
 */
export function parseScopes(names: readonly string[]): Scope[] {
  const scopes: Scope[] = [];
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (isScope(name)) {
      if (!scopes.includes(name)) {
        scopes.push(name);
      }
    } else {
      unknown.push(raw);
    }
  }
  if (unknown.length > 0) {
    throw new UnknownScopeError(unknown);
  }
  return scopes;
}

/**
 * Scopes read back from the database. A stored name that is no longer a valid scope (renamed or
 * removed in the contracts) grants nothing rather than failing the whole key.
 */
export function scopesFromStored(stored: readonly string[]): Scope[] {
  return stored.filter(isScope);
}

/** True when every required scope is granted (an empty requirement is always met). */
export function hasScopes(granted: readonly string[], required: readonly string[]): boolean {
  return required.every((scope) => granted.includes(scope));
}
