/**
 * The target file as a certification pack records it: as written (so `${NAME}` references stay visible as
 * such), with every credential masked. A value under a credential key is masked unless it is only
 * `${NAME}` references; every other string passes through the target's redactor too, so a credential
 * that also appears elsewhere (in a URL, say) is masked there as well. File paths (mTLS) keep only
 * their file name: they are paths of the certifier's machine, meaningless to whoever reads the pack.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseYamlText } from '../config/yaml-text.ts';
import { SECRET_KEY_PATTERN, type Redactor } from '../secrets/redact.ts';

const ONLY_REFERENCES = /^(\$\{[A-Za-z_][A-Za-z0-9_]*\})+$/;
const PATH_KEYS = new Set(['cert', 'key', 'ca']);
export const MASK = '***';

function mask(node: unknown, redactor: Redactor, key = '', secret = false): unknown {
  if (typeof node === 'string') {
    if (secret && !ONLY_REFERENCES.test(node)) return MASK;
    if (PATH_KEYS.has(key)) return basename(node);
    return redactor.redact(node);
  }
  if (Array.isArray(node)) return node.map((item) => mask(item, redactor, key, secret));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, mask(v, redactor, k, secret || SECRET_KEY_PATTERN.test(k))]));
  }
  return node;
}

/** The target file's content, parsed, with every credential masked. */
export function maskedTargetFile(file: string, redactor: Redactor): unknown {
  return mask(parseYamlText(readFileSync(file, 'utf8')), redactor);
}
