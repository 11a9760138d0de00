// The little of the DNS wire format the forwarder needs: read a query's header and its one question,
// and build a refusal for it. Pure and bounded; anything unusual is refused rather than guessed.

export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
export type Rcode = (typeof RCODE)[keyof typeof RCODE];

/** Larger UDP queries are not read (EDNS clients send far less). */
export const MAX_QUERY = 4096;
const HEADER = 12;
const MAX_NAME_WIRE = 255;

export interface DnsQuery {
  id: number;
  /** Flags word of the header (QR clear, opcode QUERY). */
  flags: number;
  /** Lower-case, labels joined with dots, no trailing dot; '' for the root. */
  name: string;
  qtype: number;
  qclass: number;
  /** Offset just past the question, so a reply can copy it. */
  questionEnd: number;
}

// Letters, digits, hyphen and underscore: a label with a dot or any other byte in it could be
// judged as another name than the one the upstream resolves.
const labelChar = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;

/** The query, or null when the packet is not one standard query with exactly one question. */
export function parseQuery(buf: Buffer): DnsQuery | null {
  if (buf.length < HEADER + 5 || buf.length > MAX_QUERY) return null;
  const id = buf.readUInt16BE(0);
  const flags = buf.readUInt16BE(2);
  if (flags & 0x8000) return null; // a response
  if ((flags >> 11) & 0xf) return null; // opcode other than QUERY
  // Exactly one question and no answers: only the question judged is forwarded.
  if (buf.readUInt16BE(4) !== 1 || buf.readUInt16BE(6) !== 0 || buf.readUInt16BE(8) !== 0) return null;
  const labels: string[] = [];
  let p = HEADER;
  for (;;) {
    if (p >= buf.length) return null;
    const len = buf[p];
    if (len === 0) break;
    if (len > 63) return null; // compression pointers (0xc0) and extended label types are refused
    if (p + 1 + len > buf.length || p + 1 + len - HEADER >= MAX_NAME_WIRE) return null;
    for (let i = p + 1; i <= p + len; i++) if (!labelChar(buf[i])) return null;
    labels.push(buf.toString('latin1', p + 1, p + 1 + len).toLowerCase());
    p += 1 + len;
  }
  p += 1;
  if (p + 4 > buf.length) return null;
  return { id, flags, name: labels.join('.'), qtype: buf.readUInt16BE(p), qclass: buf.readUInt16BE(p + 2), questionEnd: p + 4 };
}

/** A reply to `query` (whose bytes are `raw`) with no records and the given RCODE. */
export function buildReply(raw: Buffer, query: DnsQuery, rcode: Rcode): Buffer {
  const question = raw.subarray(HEADER, query.questionEnd);
  const out = Buffer.alloc(HEADER + question.length);
  out.writeUInt16BE(query.id, 0);
  // QR, the query's opcode and RD, RA set, the RCODE.
  out.writeUInt16BE(0x8000 | (query.flags & 0x7900) | 0x0080 | rcode, 2);
  out.writeUInt16BE(1, 4);
  question.copy(out, HEADER);
  return out;
}

/** The id of a DNS message and whether it is a response; null when shorter than a header. */
export function readHeader(buf: Buffer): { id: number; response: boolean } | null {
  if (buf.length < HEADER) return null;
  return { id: buf.readUInt16BE(0), response: (buf.readUInt16BE(2) & 0x8000) !== 0 };
}
