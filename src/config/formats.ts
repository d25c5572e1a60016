// The semantic checks behind the schemas' `format` names. Each takes the string as sent and
// returns null or the problem, worded for the person who wrote it. Addresses are parsed by src/net
// (strict, host bits must be zero, the message names the text); expressions by the Rules-language
// engine, whose message is passed through untouched because its exact text is part of the API
// contract (validate-expr returns it byte for byte).
import { parseCidr, NetParseError } from '../net/cidr.js';
import { validateExpression } from '../lang/index.js';
import type { FormatCheck } from './schema.js';

const HEX_ID = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const LIST_NAME = /^[a-z0-9_]+$/;
const VERSION = /^[1-9][0-9]*$/;

function address(text: string, needLength: boolean): ReturnType<FormatCheck> {
  if (needLength && !text.includes('/')) {
    return { kind: 'invalid_address', message: `${JSON.stringify(text)}: not a prefix in CIDR notation (address/length)` };
  }
  try {
    parseCidr(text);
    return null;
  } catch (err) {
    if (err instanceof NetParseError) return { kind: 'invalid_address', message: err.message };
    throw err;
  }
}

function expression(kind: 'rule' | 'filter'): FormatCheck {
  return (text) => {
    const err = validateExpression(text, kind);
    return err ? { kind: 'invalid_expression', message: err.message } : null;
  };
}

function pattern(re: RegExp, what: string): FormatCheck {
  return (text) => (re.test(text) ? null : { kind: 'invalid_value', message: `${JSON.stringify(text)} is not ${what}` });
}

/** Every format the configuration schemas use. */
export const FORMATS: Readonly<Record<string, FormatCheck>> = {
  /** a network in CIDR notation, host bits zero: ATP prefixes */
  'cidr': (text) => address(text, true),
  /** a CIDR or a single address: allowlist entries, list items */
  'address-or-cidr': (text) => address(text, false),
  /** an expression of the network-firewall phase (rulesets) */
  'rule-expression': expression('rule'),
  /** an expression of the Advanced TCP Protection filter scheme */
  'filter-expression': expression('filter'),
  'hex-id': pattern(HEX_ID, 'a 32-character lowercase hex identifier'),
  'uuid': pattern(UUID, 'a UUID'),
  'timestamp': (text) => (TIMESTAMP.test(text) && !Number.isNaN(Date.parse(text))
    ? null
    : { kind: 'invalid_value', message: `${JSON.stringify(text)} is not an ISO-8601 timestamp` }),
  'list-name': pattern(LIST_NAME, 'a list name (only lowercase letters, digits and the underscore)'),
  'version': pattern(VERSION, 'a version number'),
};
