// Which format a configuration file is in, from its content alone: JSON that is Terraform's output,
// the vendor API's answer (an envelope, a ruleset, or an array of them) or else a snapshot; YAML that
// is an octorules account file. Anything else is read as a snapshot, whose reader says what is wrong.
import { parse as parseYaml } from 'yaml';
import { isObject, type ConfigFormat } from './document.js';
import { isOctorulesAccount } from './octorules.js';
import { isTerraformJson } from './terraform.js';

function jsonFormat(value: unknown): ConfigFormat {
  if (Array.isArray(value)) return 'vendor';
  if (isTerraformJson(value)) return 'terraform';
  if (isObject(value) && ('result' in value || 'success' in value || ('phase' in value && 'rules' in value))) return 'vendor';
  return 'snapshot';
}

export function detectFormat(text: string): ConfigFormat {
  if (/^\s*[[{]/.test(text)) {
    try {
      return jsonFormat(JSON.parse(text));
    } catch {
      return 'snapshot';
    }
  }
  try {
    return isOctorulesAccount(parseYaml(text)) ? 'octorules' : 'snapshot';
  } catch {
    return 'snapshot';
  }
}
