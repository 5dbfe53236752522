import {
  type CheckedElement,
  type CheckedManifest,
  type ElementKind,
  isObject,
  type Json,
  type JsonObject,
} from './manifest';
import { type ChangeClass, RULES, type RuleName } from './rules';
import { type Direction, diffSchema, type Finding, jsonEqual, segment } from './schema-diff';

/** One classified difference. Its id depends only on class, rule, element id and pointer. */
export interface Change {
  readonly id: string;
  readonly class: ChangeClass;
  readonly rule: RuleName;
  readonly element: string;
  readonly pointer: string;
  readonly message: string;
}

export const changeId = (rule: RuleName, element: string, pointer: string): string =>
  `${RULES[rule].class}/${rule}/${element}${pointer === '' ? '' : `#${pointer}`}`;

const NOUN: Record<ElementKind, string> = {
  rest_endpoint: 'endpoint',
  mcp_tool: 'tool',
  execution_mode: 'mode',
  run_state: 'state',
  lifecycle: 'lifecycle',
  error_status: 'error',
  scope: 'scope',
  limit: 'limit',
};

/** Every difference from `baseline` to `candidate`, sorted by id, one change per id. */
export function compareManifests(baseline: CheckedManifest, candidate: CheckedManifest): Change[] {
  const changes = new Map<string, Change>();
  const add = (element: string, finding: Finding) => {
    const id = changeId(finding.rule, element, finding.pointer);
    if (changes.has(id)) return;
    const where = finding.pointer === '' ? '' : ` at ${finding.pointer}`;
    const message = `${element}${where}: ${finding.detail} — ${RULES[finding.rule].description}.`;
    changes.set(id, {
      id,
      class: RULES[finding.rule].class,
      rule: finding.rule,
      element,
      pointer: finding.pointer,
      message,
    });
  };
  for (const [id, before] of baseline.elements) {
    const after = candidate.elements.get(id);
    if (after === undefined) {
      add(id, {
        rule: `${NOUN[before.kind]}-removed` as RuleName,
        pointer: '',
        detail: `${before.kind} removed`,
      });
    } else if (after.kind !== before.kind) {
      add(id, { rule: 'unclassified', pointer: '/kind', detail: `kind ${before.kind} → ${after.kind}` });
    } else {
      for (const finding of compareElement(before, after)) add(id, finding);
    }
  }
  for (const [id, after] of candidate.elements) {
    if (!baseline.elements.has(id)) {
      add(id, { rule: `${NOUN[after.kind]}-added` as RuleName, pointer: '', detail: 'new in the manifest' });
    }
  }
  return [...changes.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type FieldComparer = (before: Json | undefined, after: Json | undefined, at: string) => Finding[];

const doc: FieldComparer = (_before, _after, at) => [
  { rule: 'doc-changed', pointer: at, detail: 'text changed' },
];
const as =
  (rule: RuleName, detail: string): FieldComparer =>
  (before, after, at) => [{ rule, pointer: at, detail: `${detail}: ${show(before)} → ${show(after)}` }];
const schema =
  (direction: Direction): FieldComparer =>
  (before, after, at) =>
    diffSchema(before ?? null, after ?? null, at, direction);

const show = (value: Json | undefined): string => (value === undefined ? 'none' : JSON.stringify(value));

/** A sorted set (scopes, transitions): one finding per member, named by value so ids stay stable. */
const memberSet =
  (addedRule: RuleName, removedRule: RuleName, noun: string): FieldComparer =>
  (before, after, at) => {
    const a = Array.isArray(before) ? before.map(String) : [];
    const b = Array.isArray(after) ? after.map(String) : [];
    return [
      ...b
        .filter((value) => !a.includes(value))
        .map((value) => ({
          rule: addedRule,
          pointer: at + segment(value),
          detail: `${noun} "${value}" added`,
        })),
      ...a
        .filter((value) => !b.includes(value))
        .map((value) => ({
          rule: removedRule,
          pointer: at + segment(value),
          detail: `${noun} "${value}" removed`,
        })),
    ];
  };

const parameters: FieldComparer = (before, after, at) => {
  if (!isObject(before ?? null) || !isObject(after ?? null)) return schema('input')(before, after, at);
  const a = before as JsonObject;
  const b = after as JsonObject;
  const locations = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return locations.flatMap((location) =>
    diffSchema(a[location] ?? null, b[location] ?? null, at + segment(location), 'input'),
  );
};

const responses: FieldComparer = (before, after, at) => {
  const a = isObject(before ?? null) ? (before as JsonObject) : {};
  const b = isObject(after ?? null) ? (after as JsonObject) : {};
  const statuses = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return statuses.flatMap((status): Finding[] => {
    const pointer = at + segment(status);
    if (!Object.hasOwn(b, status))
      return [{ rule: 'response-status-removed', pointer, detail: `status ${status} removed` }];
    if (!Object.hasOwn(a, status))
      return [{ rule: 'response-status-added', pointer, detail: `status ${status} added` }];
    return diffSchema(a[status] ?? null, b[status] ?? null, pointer, 'output');
  });
};

const toolScope: FieldComparer = (before, after, at) =>
  after === null || after === undefined
    ? [{ rule: 'scope-requirement-removed', pointer: at, detail: `scope ${show(before)} no longer required` }]
    : [
        {
          rule: 'scope-requirement-added',
          pointer: at,
          detail: `now requires scope ${show(after)} (was ${show(before)})`,
        },
      ];

const runnable: FieldComparer = (_before, after, at) =>
  after === true
    ? [{ rule: 'mode-now-runnable', pointer: at, detail: 'now runnable' }]
    : [{ rule: 'mode-no-longer-runnable', pointer: at, detail: 'no longer runnable' }];

const deprecated: FieldComparer = (before, after, at) => {
  if (before === undefined) return [{ rule: 'deprecated', pointer: at, detail: `deprecated ${show(after)}` }];
  if (after === undefined) return [{ rule: 'undeprecated', pointer: at, detail: 'deprecation withdrawn' }];
  return [
    { rule: 'deprecation-changed', pointer: at, detail: `deprecation ${show(before)} → ${show(after)}` },
  ];
};

/** Per kind, the comparer of each field; a field without one falls to `unclassified`. */
const COMPARERS: Record<ElementKind, Record<string, FieldComparer>> = {
  rest_endpoint: {
    operation_id: as('operation-id-changed', 'operation id'),
    scopes: memberSet('scope-requirement-added', 'scope-requirement-removed', 'scope'),
    parameters,
    request_body: schema('input'),
    responses,
    rate_limit: as('rate-limit-changed', 'rate limit'),
  },
  mcp_tool: {
    title: doc,
    description: doc,
    scope: toolScope,
    input_schema: schema('input'),
    output_schema: schema('output'),
    annotations: as('annotations-changed', 'annotations'),
  },
  execution_mode: { runnable, description: doc },
  run_state: {
    terminal: as('state-terminal-changed', 'terminal'),
    transitions: memberSet('state-transition-added', 'state-transition-removed', 'transition to'),
  },
  lifecycle: { steps: as('lifecycle-steps-changed', 'steps'), description: doc },
  error_status: { meaning: doc },
  scope: { description: doc },
  limit: { value: as('limit-changed', 'value'), unit: as('limit-changed', 'unit'), description: doc },
};

function compareElement(before: CheckedElement, after: CheckedElement): Finding[] {
  const comparers = COMPARERS[before.kind];
  const fields = [...new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])].sort();
  return fields.flatMap((field) => {
    const a = before.fields[field];
    const b = after.fields[field];
    if (jsonEqual(a, b)) return [];
    const at = segment(field);
    if (field === 'deprecated') return deprecated(a, b, at);
    const comparer = comparers[field];
    if (comparer === undefined)
      return [{ rule: 'unclassified' as const, pointer: at, detail: `${field} changed` }];
    return comparer(a, b, at);
  });
}
