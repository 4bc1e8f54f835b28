'use strict';
// Stable JSON text for the committed data files: object keys sorted by code
// unit (JSON.stringify would put integer-like keys first), two-space indent,
// one array item per line, so a regeneration diffs line by line.

function write(value, indent) {
  const pad = '  '.repeat(indent + 1);
  const close = '  '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => pad + write(v, indent + 1)).join(',\n')}\n${close}]`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    if (keys.length === 0) return '{}';
    const body = keys.map((k) => `${pad}${JSON.stringify(k)}: ${write(value[k], indent + 1)}`);
    return `{\n${body.join(',\n')}\n${close}}`;
  }
  return JSON.stringify(value);
}

// The whole document, ending in a newline.
function stableJson(value) {
  return `${write(value, 0)}\n`;
}

module.exports = { stableJson };
