// Completion inside an expression: the fields of the scheme in force (the firewall's, or an ATP
// filter's four) with type and unit, functions with their signatures, `not`, the operators a field's
// type takes, the values a name field takes (protocol keywords for ip.proto, country codes, data
// centers, regions), list names after `$` (the document's lists and the managed ones), and the
// logical operators after a comparison. Each item replaces the word being typed, in the document's
// own writing (JSON escapes a value's quotes).
import { fieldType } from '../../field-registry.js';
import type { DocumentModel } from '../document.js';
import { fieldDetail, fieldEntry, fieldMarkdown, fieldsOf, functionMarkdown, functionsOf, LOGICAL, managedListNames, managedListSize, operatorsFor, valuesOf } from '../language/vocabulary.js';
import { expressionAt, wantAt } from './context.js';

export type ItemKind = 'field' | 'function' | 'keyword' | 'operator' | 'value' | 'list';

export interface Completion {
  label: string;
  kind: ItemKind;
  detail: string;
  documentation?: string;
  /** the document's text [start, end) the item replaces, and what it writes there */
  start: number;
  end: number;
  text: string;
}

/** The completions at a document offset, or none when it is not inside an expression. */
export function completionsAt(model: DocumentModel, offset: number): Completion[] {
  const at = expressionAt(model, offset);
  if (at === undefined) return [];
  const { e, index } = at;
  const want = wantAt(e.value, index);
  const start = e.at(want.from);
  const end = offset;
  const item = (label: string, kind: ItemKind, detail: string, documentation?: string, insert = label): Completion[] => {
    const text = e.encode(insert);
    return text === null ? [] : [{ label, kind, detail, documentation, start, end, text }];
  };
  const starters = (): Completion[] => [
    ...fieldsOf(e.kind).flatMap((f) => item(f.name, 'field', fieldDetail(f), fieldMarkdown(f))),
    ...functionsOf(e.kind).flatMap((fn) => item(fn.name, 'function', fn.signature, functionMarkdown(fn), `${fn.name}(`)),
    ...item('not', 'keyword', 'negates the comparison or group that follows'),
  ];
  const logical = (): Completion[] => LOGICAL.filter((k) => k !== 'not').flatMap((k) => item(k, 'keyword', `logical ${k}`));
  switch (want.kind) {
    case 'list': {
      const names = [...model.lists.map((l) => ({ name: l.name, detail: `${l.kind} list, ${l.items} item${l.items === 1 ? '' : 's'}` })), ...managedListNames().map((name) => ({ name, detail: `managed list (bundled sample: ${managedListSize(name)} entries)` }))];
      return names.flatMap(({ name, detail }) => item(name, 'list', detail));
    }
    case 'value': {
      const field = fieldEntry(want.field, e.kind);
      const values = field === undefined ? undefined : valuesOf(field);
      return (values ?? []).flatMap((v) => item(v.text, 'value', v.detail));
    }
    case 'operator': {
      const field = fieldEntry(want.field, e.kind);
      if (field === undefined) return logical();
      if (fieldType(field) === 'Bool') return logical();
      return operatorsFor(field).flatMap((op) => item(op, 'operator', `${want.field} ${op} …`));
    }
    case 'logical':
      return logical();
    case 'start':
      return starters();
  }
}
