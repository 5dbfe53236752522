/**
 * The compatibility rules of `pnpm contract check` (spec §9): every difference between two manifests is
 * named by exactly one rule, and the rule alone decides its class. A difference no specific rule names
 * falls to `schema-changed` / `unclassified` (behavioral-risk): conservative, never silently ignored.
 */
import type { ChangeClass } from '../manifest-types';

export type { ChangeClass };

interface Rule {
  readonly class: ChangeClass;
  readonly description: string;
}

const breaking = (description: string): Rule => ({ class: 'breaking', description });
const risk = (description: string): Rule => ({ class: 'behavioral-risk', description });
const additive = (description: string): Rule => ({ class: 'additive', description });

export const RULES = {
  // Elements appearing and disappearing.
  'endpoint-removed': breaking('a REST endpoint was removed'),
  'tool-removed': breaking('an MCP tool was removed'),
  'mode-removed': breaking('an execution mode was removed'),
  'state-removed': breaking('a run state was removed'),
  'lifecycle-removed': breaking('a documented lifecycle was removed'),
  'error-removed': breaking('an error status was removed'),
  'scope-removed': breaking('a scope was removed'),
  'limit-removed': breaking('a documented limit was removed'),
  'endpoint-added': additive('a REST endpoint was added'),
  'tool-added': additive('an MCP tool was added'),
  'mode-added': additive('an execution mode was added'),
  'state-added': additive('a run state was added'),
  'lifecycle-added': additive('a documented lifecycle was added'),
  'error-added': additive('an error status was added'),
  'scope-added': additive('a scope was added'),
  'limit-added': additive('a documented limit was added'),
  // Access.
  'scope-requirement-added': breaking('an endpoint or tool now requires a scope it did not require'),
  'scope-requirement-removed': risk('an endpoint or tool no longer requires a scope (wider access)'),
  'operation-id-changed': breaking('an operation id changed (generated clients name methods after it)'),
  'rate-limit-changed': risk('an endpoint moved to another rate-limit budget (or gained/lost one)'),
  'response-status-removed': breaking('an endpoint no longer documents a response status'),
  'response-status-added': risk('an endpoint documents a new response status clients may not handle'),
  'annotations-changed': risk("an MCP tool's annotations (hints) changed"),
  // Modes, states, lifecycles, limits.
  'mode-no-longer-runnable': breaking('an execution mode stopped being runnable'),
  'mode-now-runnable': additive('an execution mode became runnable'),
  'state-terminal-changed': risk('a run state became terminal or stopped being terminal'),
  'state-transition-added': risk('a run state gained a transition'),
  'state-transition-removed': risk('a run state lost a transition'),
  'lifecycle-steps-changed': risk("a lifecycle's ordered step list changed"),
  'limit-changed': risk("a limit's value or unit changed (narrowed or widened alike)"),
  // Deprecation.
  deprecated: risk('an element was newly deprecated'),
  'deprecation-changed': risk("an element's deprecation (dates, replacement, link) changed"),
  undeprecated: additive('an element is no longer deprecated'),
  // Documentation-only keywords and fields.
  'doc-changed': additive('a title, description, meaning or example changed (documentation only)'),
  // Schemas (request bodies, parameters, MCP input = input; responses, MCP output = output).
  'enum-value-removed': breaking('an enum (or const) value was removed, input or output'),
  'input-enum-value-added': additive('an input enum accepts a new value'),
  'output-enum-value-added': risk('an output enum may carry a new value clients may not handle'),
  'response-field-removed': breaking('an output field (or a whole response body) was removed'),
  'output-field-made-optional': breaking('an output field is no longer always present'),
  'output-field-made-required': additive('an output field is now always present'),
  'response-field-added': additive('an output field (or a response body) was added'),
  'required-input-added': breaking('a new required input (property, parameter or body)'),
  'optional-input-added': additive('a new optional input (property, parameter or body)'),
  'input-field-removed': breaking('an input field (or body) is no longer accepted'),
  'input-made-optional': additive('a required input became optional'),
  'type-narrowed': breaking(
    'an input accepts less: type lost a member, max lowered, min raised, pattern or format added/changed, variant removed',
  ),
  'input-widened': additive(
    'an input accepts more: type gained a member, max raised, min lowered, pattern or format removed, variant added',
  ),
  'output-type-changed': breaking("an output value's type changed"),
  'output-constraint-changed': risk('an output bound, pattern, format or variant changed'),
  'default-changed': risk('a default value changed'),
  'schema-changed': risk('a schema keyword no specific rule covers changed'),
  unclassified: risk('an element field no specific rule covers changed'),
} as const satisfies Record<string, Rule>;

export type RuleName = keyof typeof RULES;
