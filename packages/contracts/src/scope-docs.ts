import type { Scope } from './common';

/**
 * One sentence per scope (spec §5.3), for people choosing a key's scopes: the dashboard's keys page
 * shows it beside each checkbox. The README's "Scopes" table lists the exact operations each guards.
 */
export const SCOPE_DOCS: Readonly<Record<Scope, string>> = {
  'capabilities:read':
    'Search and describe capabilities through the MCP tools (REST list and describe are public).',
  'capabilities:quote': 'Ask for a price: quote a capability run without starting it.',
  'capabilities:run': 'Start runs, read their status and cancel them; runs spend the balance.',
  'uploads:write': 'Open upload sessions and upload the files a run takes as input.',
  'artifacts:read': "List and download a run's result files (and filled vault documents, with vault:fill).",
  'billing:read': 'Read the balance, usage statements, spend diagnostics and run receipts.',
  'vault:read': "Read the vault's fields (masked), extractions and audit trail.",
  'vault:write': 'Save and delete vault fields, submit documents for extraction and review their candidates.',
  'vault:fill':
    'Fill document templates with vault fields and list the filled documents (they hold plain text).',
};
