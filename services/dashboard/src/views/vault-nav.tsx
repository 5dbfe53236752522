/** The vault's own sections, under the page title. */
const SECTIONS = [
  { key: 'fields', href: '/dashboard/vault', label: 'Fields' },
  { key: 'extractions', href: '/dashboard/vault/extractions', label: 'Extractions' },
  { key: 'fill', href: '/dashboard/vault/fill', label: 'Fill a document' },
  { key: 'audit', href: '/dashboard/vault/audit', label: 'Audit trail' },
] as const;
export type VaultSection = (typeof SECTIONS)[number]['key'];

export function VaultNav(props: { readonly active: VaultSection }) {
  return (
    <nav class="subnav" aria-label="Vault">
      {SECTIONS.map((section) => (
        <a
          key={section.key}
          href={section.href}
          aria-current={section.key === props.active ? 'page' : undefined}
          data-testid={`vault-nav-${section.key}`}
        >
          {section.label}
        </a>
      ))}
    </nav>
  );
}
