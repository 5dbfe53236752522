import { allScopes, hasScopes, isScope, parseScopes, UnknownScopeError } from './scopes';

// spec §5.3: six general scopes and three vault scopes.
const SPEC_SCOPES = [
  'capabilities:read',
  'capabilities:quote',
  'capabilities:run',
  'uploads:write',
  'artifacts:read',
  'billing:read',
  'vault:read',
  'vault:write',
  'vault:fill',
];

describe('scopes', () => {
  it('are exactly the 9 of spec §5.3', () => {
    expect([...allScopes()].sort()).toEqual([...SPEC_SCOPES].sort());
    for (const scope of SPEC_SCOPES) {
      expect(isScope(scope)).toBe(true);
    }
    expect(isScope('admin')).toBe(false);
    expect(isScope('Capabilities:read')).toBe(false);
  });

  it('parseScopes trims, drops duplicates and keeps order', () => {
    expect(parseScopes([' billing:read', 'capabilities:read', 'billing:read'])).toEqual([
      'billing:read',
      'capabilities:read',
    ]);
    expect(parseScopes([])).toEqual([]);
  });

  it('parseScopes names every unknown scope and lists the valid ones', () => {
    let caught: unknown;
    try {
      parseScopes(['capabilities:read', 'root', 'vault:delete']);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UnknownScopeError);
    const error = caught as UnknownScopeError;
    expect(error.unknownScopes).toEqual(['root', 'vault:delete']);
    expect(error.message).toContain('root, vault:delete');
    for (const scope of SPEC_SCOPES) {
      expect(error.message).toContain(scope);
    }
  });

  it('hasScopes requires every required scope', () => {
    const granted = ['capabilities:read', 'capabilities:run'];
    expect(hasScopes(granted, [])).toBe(true);
    expect(hasScopes(granted, ['capabilities:read'])).toBe(true);
    expect(hasScopes(granted, ['capabilities:read', 'capabilities:run'])).toBe(true);
    expect(hasScopes(granted, ['capabilities:read', 'billing:read'])).toBe(false);
    expect(hasScopes([], ['capabilities:read'])).toBe(false);
  });
});
