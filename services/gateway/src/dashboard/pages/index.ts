import type { PageModule } from '../page-kit';
import { keysPages } from './keys';
import { overviewPages } from './overview';
import { runsPages } from './runs';
import { usagePages } from './usage';
import { vaultPages } from './vault';
import { vaultFillPages } from './vault-fill';
import { vaultReviewPages } from './vault-review';

/**
 * Every page module, in mount order (sign-in and sign-out are the router's own: they run before and
 * around the session check). Add a module here: `export const fooPages: PageModule = (router, kit) => …`.
 */
export const PAGE_MODULES: readonly PageModule[] = [
  overviewPages,
  keysPages,
  usagePages,
  runsPages,
  vaultPages,
  vaultReviewPages,
  vaultFillPages,
];
