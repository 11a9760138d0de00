// Turns a merge patch into text edits of a scanned JSON5 source: only the patched values, the
// deleted members and the added members change; comments, order, quoting and spacing elsewhere stay.
import { AppError } from '../../core/errors';
import { isHSpace, isLineEnd, type JsonNode, type Member, type ObjectNode, type ScannedJson5 } from './json5-scan';
import { isPlainObject, type WriteStyle, writeKey, writeValue } from './json5-write';

interface Edit {
  start: number;
  end: number;
  text: string;
}

type Merge = (target: unknown, patch: unknown) => unknown;

const own = (o: Record<string, unknown>, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
const spanEnd = (m: Member) => (m.comma >= 0 ? m.comma + 1 : m.value.end);

export class Json5Editor {
  private readonly edits: Edit[] = [];
  private readonly lineStarts: number[] = [0];
  readonly style: WriteStyle;

  constructor(
    private readonly text: string,
    private readonly scan: ScannedJson5,
    private readonly merge: Merge,
  ) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || c === 0x2028 || c === 0x2029 || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) this.lineStarts.push(i + 1);
    }
    this.style = this.detectStyle();
  }

  private lineOf(pos: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private lineStartAt(pos: number): number {
    return this.lineStarts[this.lineOf(pos)];
  }

  /** The white space that starts the line holding `pos`. */
  private indentAt(pos: number): string {
    const start = this.lineStartAt(pos);
    let i = start;
    while (i < pos && isHSpace(this.text.charCodeAt(i))) i++;
    return this.text.slice(start, i);
  }

  private firstOnLine(pos: number): boolean {
    return this.lineStartAt(pos) + this.indentAt(pos).length === pos;
  }

  private multiline(node: JsonNode): boolean {
    return this.lineOf(node.start) !== this.lineOf(node.end - 1);
  }

  private detectStyle(): WriteStyle {
    const lf = this.text.indexOf('\n');
    const nl = lf > 0 && this.text[lf - 1] === '\r' ? '\r\n' : '\n';
    let unit = '';
    let commas = 0;
    let noCommas = 0;
    const visit = (node: JsonNode) => {
      if (node.kind === 'scalar') return;
      const children =
        node.kind === 'object'
          ? node.members.map((m) => ({ at: m.keyStart, value: m.value, comma: m.comma }))
          : node.items.map((it) => ({ at: it.value.start, ...it }));
      if (children.length > 0 && this.multiline(node)) {
        if (children[children.length - 1].comma >= 0) commas++;
        else noCommas++;
        const first = children[0];
        if (!unit && this.firstOnLine(first.at) && this.lineOf(first.at) !== this.lineOf(node.start)) {
          const inner = this.indentAt(first.at);
          const outer = this.indentAt(node.start);
          if (inner.length > outer.length && inner.startsWith(outer)) unit = inner.slice(outer.length);
        }
      }
      for (const c of children) visit(c.value);
    };
    visit(this.scan.root);
    return { nl, unit: unit || '  ', trailingComma: commas > noCommas };
  }

  /** True when a comment starts inside [start, end). */
  private hasComment(start: number, end: number): boolean {
    const cs = this.scan.comments;
    let lo = 0;
    let hi = cs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cs[mid].start < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < cs.length && cs[lo].start < end;
  }

  /** From `pos`, past white space and comments that end on the same line. */
  private skipSameLine(pos: number): number {
    const t = this.text;
    for (;;) {
      while (pos < t.length && isHSpace(t.charCodeAt(pos))) pos++;
      if (t[pos] !== '/' || (t[pos + 1] !== '/' && t[pos + 1] !== '*')) return pos;
      const end = t[pos + 1] === '/' ? this.lineEndFrom(pos) : t.indexOf('*/', pos + 2) + 2;
      if (this.lineOf(end - 1) !== this.lineOf(pos)) return pos;
      pos = end;
    }
  }

  private lineEndFrom(pos: number): number {
    while (pos < this.text.length && !isLineEnd(this.text.charCodeAt(pos))) pos++;
    return pos;
  }

  private atLineEnd(pos: number): boolean {
    return pos >= this.text.length || isLineEnd(this.text.charCodeAt(pos));
  }

  /** Patches the whole text's value, `current`. */
  patchRoot(current: unknown, patch: Record<string, unknown>): void {
    this.patchNode(this.scan.root, current, patch, this.indentAt(this.scan.root.start), false);
  }

  /**
   * Patches the value `node` whose parsed form is `current`; `indent` is the indent of its line,
   * `inline` says it sits in a one-line object (new values are then written on one line too).
   */
  private patchNode(node: JsonNode, current: unknown, patch: unknown, indent: string, inline: boolean): void {
    if (node.kind === 'object' && isPlainObject(current) && isPlainObject(patch)) this.patchObject(node, current, patch, inline);
    else this.edits.push({ start: node.start, end: node.end, text: writeValue(this.merge(current, patch), indent, this.style, inline) });
  }

  private patchObject(node: ObjectNode, current: Record<string, unknown>, patch: Record<string, unknown>, inline: boolean): void {
    const { members } = node;
    const oneLine = !this.multiline(node);
    const byKey = new Map<string, number[]>();
    members.forEach((m, i) => {
      const list = byKey.get(m.key);
      if (list) list.push(i);
      else byKey.set(m.key, [i]);
    });
    const deleted = members.map(() => false);
    const added: [string, unknown][] = [];
    for (const key of Object.keys(patch)) {
      const p = patch[key];
      const at = byKey.get(key);
      if (p === undefined) continue;
      if (p === null) for (const i of at ?? []) deleted[i] = true;
      // With duplicate keys json5 keeps the last one; only that one is patched.
      else if (at) {
        const m = members[at[at.length - 1]];
        this.patchNode(m.value, own(current, key), p, this.indentAt(m.keyStart), oneLine);
      } else added.push([key, this.merge(undefined, p)]);
    }
    const survivors = members.filter((_, i) => !deleted[i]);
    const changed = added.length > 0 || survivors.length < members.length;
    if (!changed) return;
    if (survivors.length === 0 && !this.hasComment(node.start, node.end)) {
      this.edits.push({ start: node.start, end: node.end, text: writeValue(this.merge(current, patch), this.indentAt(node.start), this.style, inline) });
      return;
    }
    this.deleteMembers(members, deleted);
    const trailing = members.length > 0 ? members[members.length - 1].comma >= 0 : this.style.trailingComma;
    const last = survivors[survivors.length - 1];
    if (added.length > 0 && last) this.appendAfter(node, last, added, trailing);
    else if (added.length > 0) this.fillEmpty(node, added, trailing);
    else if (last && last.comma >= 0 && !trailing) this.edits.push({ start: last.comma, end: last.comma + 1, text: '' });
  }

  /**
   * Removes runs of deleted members that share lines, with their commas and any comment after them
   * on the same line, and their line when they sat alone on it. Comments on the lines above a
   * deleted member are kept: they may describe more than that one key.
   */
  private deleteMembers(members: Member[], deleted: boolean[]): void {
    for (let i = 0; i < members.length; i++) {
      if (!deleted[i]) continue;
      let j = i;
      while (j + 1 < members.length && deleted[j + 1] && this.lineOf(members[j + 1].keyStart) === this.lineOf(spanEnd(members[j]) - 1)) j++;
      const start = members[i].keyStart;
      const end = spanEnd(members[j]);
      const rest = this.skipSameLine(end);
      if (this.atLineEnd(rest) && this.firstOnLine(start)) {
        const t = this.text;
        const after = rest >= t.length ? rest : t[rest] === '\r' && t[rest + 1] === '\n' ? rest + 2 : rest + 1;
        this.edits.push({ start: this.lineStartAt(start), end: after, text: '' });
      } else if (this.atLineEnd(rest)) {
        let from = start;
        while (from > 0 && isHSpace(this.text.charCodeAt(from - 1))) from--;
        this.edits.push({ start: from, end: rest, text: '' });
      } else {
        let to = end;
        while (to < this.text.length && isHSpace(this.text.charCodeAt(to))) to++;
        this.edits.push({ start, end: to, text: '' });
      }
      i = j;
    }
  }

  private entries(added: [string, unknown][], indent: string, inline = false): string[] {
    return added.map(([k, v]) => `${writeKey(k)}: ${writeValue(v, indent, this.style, inline)}`);
  }

  /** Adds members after the last member that stays. */
  private appendAfter(node: ObjectNode, last: Member, added: [string, unknown][], trailing: boolean): void {
    const tail = trailing ? ',' : '';
    if (!this.multiline(node)) {
      const parts = this.entries(added, this.indentAt(node.start), true);
      if (last.comma >= 0) this.edits.push({ start: last.comma + 1, end: last.comma + 1, text: parts.map((p) => ` ${p}`).join(',') + tail });
      else this.edits.push({ start: last.value.end, end: last.value.end, text: parts.map((p) => `, ${p}`).join('') + tail });
      return;
    }
    const { nl } = this.style;
    const indent = this.firstOnLine(last.keyStart) ? this.indentAt(last.keyStart) : this.indentAt(node.start) + this.style.unit;
    const body = this.entries(added, indent).map((e) => indent + e);
    if (last.comma < 0) this.edits.push({ start: last.value.end, end: last.value.end, text: ',' });
    // Past the rest of the last member's line, and past deleted members that shared it.
    let pos = spanEnd(last);
    for (let k = node.members.indexOf(last) + 1; ; k++) {
      pos = this.skipSameLine(pos);
      if (k >= node.members.length || node.members[k].keyStart !== pos) break;
      pos = spanEnd(node.members[k]);
    }
    const text = nl + body.join(`,${nl}`) + tail;
    if (this.atLineEnd(pos)) this.edits.push({ start: pos, end: pos, text });
    else if (pos === node.end - 1) this.edits.push({ start: pos, end: pos, text: text + nl + this.indentAt(node.start) });
    else this.edits.push({ start: pos, end: pos, text: text + nl + indent });
  }

  /** Adds members to an object left with no members but holding comments. */
  private fillEmpty(node: ObjectNode, added: [string, unknown][], trailing: boolean): void {
    const close = node.end - 1;
    const tail = trailing ? ',' : '';
    if (!this.multiline(node)) {
      const space = isHSpace(this.text.charCodeAt(close - 1)) ? '' : ' ';
      this.edits.push({ start: close, end: close, text: `${space}${this.entries(added, this.indentAt(node.start), true).join(', ')}${tail} ` });
      return;
    }
    const { nl } = this.style;
    const indent = this.indentAt(node.start) + this.style.unit;
    const lines = this.entries(added, indent).map((e) => indent + e);
    const body = lines.join(`,${nl}`) + tail;
    if (this.firstOnLine(close)) {
      const at = this.lineStartAt(close);
      this.edits.push({ start: at, end: at, text: body + nl });
    } else this.edits.push({ start: close, end: close, text: nl + body + nl + this.indentAt(node.start) });
  }

  /** The text with every edit applied. */
  result(): string {
    const edits = this.edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
    let out = '';
    let pos = 0;
    for (const e of edits) {
      if (e.start < pos) throw new AppError('internal', 'Two edits of the JSON5 config overlap.');
      out += this.text.slice(pos, e.start) + e.text;
      pos = e.end;
    }
    return out + this.text.slice(pos);
  }
}
