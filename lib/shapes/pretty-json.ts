/**
 * Re-indents JSON text without parsing its values, so that what the operator
 * reads is exactly what is stored: JSON.parse would round 12345678901234567890
 * and rewrite "\u00e9" as é. Returns null for text that is not JSON.
 */
export function prettyJson(text: string, indent = '  '): string | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  let out = '';
  let depth = 0;
  let inString = false;
  const newline = () => `\n${indent.repeat(depth)}`;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      out += char;
      if (char === '\\') out += text[++index] ?? '';
      else if (char === '"') inString = false;
      continue;
    }
    switch (char) {
      case '"':
        inString = true;
        out += char;
        break;
      case '{':
      case '[': {
        const close = char === '{' ? '}' : ']';
        const next = text.slice(index + 1).trimStart()[0];
        if (next === close) {
          out += char + close;
          index = text.indexOf(close, index + 1);
        } else {
          depth++;
          out += char + newline();
        }
        break;
      }
      case '}':
      case ']':
        depth--;
        out += newline() + char;
        break;
      case ',':
        out += char + newline();
        break;
      case ':':
        out += ': ';
        break;
      default:
        if (!/\s/.test(char)) out += char;
    }
  }
  return out;
}
