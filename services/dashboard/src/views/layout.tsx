import type { ComponentChildren } from 'preact';
import type { SignedInAccount } from '../ports';
import { type Permission, ROLE_LABELS, roleCan } from '../roles';
import { CsrfForm, Flash } from './components';

/** The navigation, in order; a link shows only when the role has its permission. */
export const NAV = [
  { key: 'overview', href: '/dashboard', label: 'Overview', permission: 'overview' },
  { key: 'runs', href: '/dashboard/runs', label: 'Runs', permission: 'runs' },
  { key: 'usage', href: '/dashboard/usage', label: 'Usage', permission: 'usage' },
  { key: 'keys', href: '/dashboard/keys', label: 'API keys', permission: 'keys' },
  { key: 'vault', href: '/dashboard/vault', label: 'Vault', permission: 'vault' },
] as const satisfies ReadonlyArray<{ key: string; href: string; label: string; permission: Permission }>;
export type NavKey = (typeof NAV)[number]['key'];

function Document(props: { readonly title: string; readonly children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Capability service`}</title>
        {/* No favicon request (it would reach the API's JSON 404). */}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/dashboard/assets/app.css" />
        <script src="/dashboard/assets/app.js" defer />
      </head>
      <body>{props.children}</body>
    </html>
  );
}

export interface LayoutProps {
  readonly title: string;
  readonly account: SignedInAccount;
  readonly csrfToken: string;
  readonly active?: NavKey | undefined;
  readonly flash?: string | undefined;
  readonly children: ComponentChildren;
}

/** A signed-in page: header (client, navigation, account, sign-out), flash, then the page. */
export function Layout(props: LayoutProps) {
  const { account } = props;
  const role = ROLE_LABELS[account.role as keyof typeof ROLE_LABELS] ?? account.role;
  return (
    <Document title={props.title}>
      <header class="top">
        <a class="brand" href="/dashboard">
          {account.clientName}
        </a>
        <nav aria-label="Dashboard">
          {NAV.filter((item) => roleCan(account.role, item.permission)).map((item) => (
            <a
              key={item.key}
              href={item.href}
              aria-current={item.key === props.active ? 'page' : undefined}
              data-testid={`nav-${item.key}`}
            >
              {item.label}
            </a>
          ))}
        </nav>
        <div class="account">
          <span data-testid="account-email">{account.email}</span> <span class="role">{role}</span>
          <CsrfForm action="/dashboard/sign-out" csrfToken={props.csrfToken} class="inline">
            <button type="submit" data-testid="sign-out">
              Sign out
            </button>
          </CsrfForm>
          <CsrfForm action="/dashboard/sign-out-everywhere" csrfToken={props.csrfToken} class="inline">
            <button type="submit" class="link" data-testid="sign-out-everywhere">
              Sign out everywhere
            </button>
          </CsrfForm>
        </div>
      </header>
      <main>
        <h1>{props.title}</h1>
        <Flash message={props.flash} />
        {props.children}
      </main>
    </Document>
  );
}

/** A page without a session (sign-in, and error pages shown before one is known). */
export function BareLayout(props: {
  readonly title: string;
  readonly flash?: string | undefined;
  readonly children: ComponentChildren;
}) {
  return (
    <Document title={props.title}>
      <main class="bare">
        <h1>{props.title}</h1>
        <Flash message={props.flash} />
        {props.children}
      </main>
    </Document>
  );
}
