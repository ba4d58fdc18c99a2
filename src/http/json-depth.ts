/**
 * The deepest nesting of arrays and objects in a JSON text, found in one linear pass without parsing (strings
 * and their escapes are skipped). Checked before JSON.parse and validation, so a body nested thousands deep is
 * refused in microseconds instead of feeding recursive parsing, validation and error rendering.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
