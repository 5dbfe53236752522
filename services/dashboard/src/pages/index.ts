import type { PageModule } from '../page-kit';
import { keysPages } from './keys';
import { overviewPages } from './overview';
import { runsPages } from './runs';
import { signOutPages } from './sign-in';
import { usagePages } from './usage';
import { vaultPages } from './vault';
import { vaultFillPages } from './vault-fill';
import { vaultReviewPages } from './vault-review';

/**
 * Every page module, in mount order (sign-in is the router's own: it runs before the session check).
 * Add a module here: `export const fooPages: PageModule = (kit) => …`.
 */
export const PAGE_MODULES: readonly PageModule[] = [
  signOutPages,
  overviewPages,
  keysPages,
  usagePages,
  runsPages,
  vaultPages,
  vaultReviewPages,
  vaultFillPages,
];
