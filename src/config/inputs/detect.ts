// Which format a configuration file is in, from its content alone: JSON that is Terraform's output,
// the vendor API's answer (an envelope, a ruleset — with or without its rules, as the vendor SDK's
// fixtures hold one — or an array of them) or else a snapshot; YAML that is an octorules account
// file (its rules, or only its lists). Anything else is read as a snapshot, whose reader says what is wrong.
// The YAML parser is loaded only for text that is not JSON (it costs a command tens of milliseconds).
import { isObject, type ConfigFormat } from './document.js';
import { isTerraformJson } from './terraform.js';

/**
 * The format of a configuration already parsed (JSON or YAML): an octorules account by its rules'
 * keys (`lists:` alone is a snapshot's key too: such an object is read as a snapshot), else as its
 * JSON would be read.
 */
export async function detectValueFormat(value: unknown): Promise<ConfigFormat> {
  if (isObject(value)) {
    const { isOctorulesFile } = await import('./octorules.js');
    const { lists: _lists, ...rest } = value;
    if (isOctorulesFile(rest)) return 'octorules';
  }
  return jsonFormat(value);
}

/** The format of a JSON value: Terraform's output, the vendor API's answer, or else a snapshot. */
export function jsonFormat(value: unknown): ConfigFormat {
  if (Array.isArray(value)) return 'vendor';
  if (isTerraformJson(value)) return 'terraform';
  // a snapshot has no top-level phase: a ruleset object does
  if (isObject(value) && ('result' in value || 'success' in value || 'phase' in value)) return 'vendor';
  return 'snapshot';
}

export async function detectFormat(text: string): Promise<ConfigFormat> {
  if (/^\s*[[{]/.test(text)) {
    try {
      return jsonFormat(JSON.parse(text));
    } catch {
      return 'snapshot';
    }
  }
  const [{ parse }, { isOctorulesFile }] = await Promise.all([import('yaml'), import('./octorules.js')]);
  try {
    return isOctorulesFile(parse(text)) ? 'octorules' : 'snapshot';
  } catch {
    // YAML that does not parse: its reader names the YAML error at its place, not a JSON error at line 1
    return looksLikeYaml(text) ? 'octorules' : 'snapshot';
  }
}

/** Text that is YAML by its look: a line starting with a key and a colon, or a document marker. */
function looksLikeYaml(text: string): boolean {
  return /^(?:---|[ \t]*(?:- )?[\w.$"'-]+[ \t]*:(?:[ \t]|$))/m.test(text);
}
