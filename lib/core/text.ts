/**
 * Small string cuts done without regexes: `s.replace(/x+$/, '')` restarts at every position of a
 * long run of x and is quadratic on it.
 */

/** `s` without the run at its end of `chars` (each character of the string counts). */
export function trimEndChar(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return s.slice(0, end);
}

/** `s` without the runs of `ch` at its start and end. */
export function trimChar(s: string, ch: string): string {
  let start = 0;
  while (start < s.length && s[start] === ch) start++;
  return trimEndChar(s.slice(start), ch);
}

/** `s` up to (not including) the first `ch`, or all of `s`. */
export function cutAt(s: string, ch: string): string {
  const i = s.indexOf(ch);
  return i === -1 ? s : s.slice(0, i);
}

/** Replaces every `<…>` tag with a space in one pass (an HTML error page turned into text). */
export function stripTags(s: string): string {
  let out = '';
  let inTag = false;
  for (const c of s) {
    if (inTag) {
      if (c === '>') {
        inTag = false;
        out += ' ';
      }
    } else if (c === '<') inTag = true;
    else out += c;
  }
  return out;
}
