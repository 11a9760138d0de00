import type { Method } from './contract';

/** What a request's method and path find in the table. */
export type RouteMatch<T> =
  | { kind: 'found'; handler: T; params: Record<string, string> }
  /** The path is a route, the method is not one of it: 405 (OPTIONS answers 204 with this Allow list). */
  | { kind: 'method'; allow: string }
  /** A route's path whose parameter is not valid percent-encoding: 400. */
  | { kind: 'bad-param'; name: string }
  /** No route has this path: left to the page framework. */
  | { kind: 'none' };

interface Node<T> {
  statics: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  handlers?: Map<string, T>;
}

const node = <T>(): Node<T> => ({ statics: new Map() });
const PARAM = /^\{([A-Za-z][A-Za-z0-9_]*)\}$/;

/** The Allow header Next's App Router sends: the methods implemented, HEAD with GET, OPTIONS, sorted. */
function allowOf(methods: Iterable<string>): string {
  const allow = new Set(methods);
  if (allow.has('GET')) allow.add('HEAD');
  allow.add('OPTIONS');
  return [...allow].sort().join(', ');
}

/**
 * Method and path → handler and decoded parameters, for OpenAPI-style paths (`/api/v1/jobs/{id}`).
 * A tree of segments, walked once per request with no regular expression; a static segment is
 * tried before a parameter at the same depth, as Next ranks its routes.
 */
export class RouteTable<T> {
  private readonly root = node<T>();

  add(method: Method, path: string, handler: T): this {
    if (!path.startsWith('/')) throw new Error(`Route path must start with "/": ${path}`);
    let at = this.root;
    for (const seg of path.slice(1).split('/')) {
      if (!seg) throw new Error(`Route path has an empty segment: ${path}`);
      const p = PARAM.exec(seg);
      if (p) {
        if (at.param && at.param.name !== p[1]) throw new Error(`Route ${path}: parameter {${p[1]}} beside {${at.param.name}} at the same place`);
        at.param ??= { name: p[1], node: node() };
        at = at.param.node;
      } else {
        if (seg.includes('{') || seg.includes('}')) throw new Error(`Route ${path}: a segment is a whole parameter or none`);
        let next = at.statics.get(seg);
        if (!next) at.statics.set(seg, (next = node()));
        at = next;
      }
    }
    at.handlers ??= new Map();
    if (at.handlers.has(method)) throw new Error(`Route ${method} ${path} is defined twice`);
    at.handlers.set(method, handler);
    return this;
  }

  /** `pathname` is the raw request path (no query), still percent-encoded. */
  match(method: string, pathname: string): RouteMatch<T> {
    if (pathname.length < 2 || pathname.charCodeAt(0) !== 47) return { kind: 'none' };
    const segs = pathname.slice(1).split('/');
    const names: string[] = [];
    const values: string[] = [];
    const found = this.walk(this.root, segs, 0, names, values);
    if (!found?.handlers) return { kind: 'none' };
    const handler = found.handlers.get(method) ?? (method === 'HEAD' ? found.handlers.get('GET') : undefined);
    if (handler === undefined) return { kind: 'method', allow: allowOf(found.handlers.keys()) };
    const params: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) {
      let v: string;
      try {
        v = decodeURIComponent(values[i]);
      } catch {
        return { kind: 'bad-param', name: names[i] };
      }
      // A dot segment is resolved by URL parsing before Next matches: it never names a parameter.
      if (v === '.' || v === '..') return { kind: 'none' };
      params[names[i]] = v;
    }
    return { kind: 'found', handler, params };
  }

  private walk(at: Node<T>, segs: string[], i: number, names: string[], values: string[]): Node<T> | undefined {
    if (i === segs.length) return at.handlers ? at : undefined;
    const seg = segs[i];
    if (!seg) return undefined;
    const s = at.statics.get(seg);
    if (s) {
      const hit = this.walk(s, segs, i + 1, names, values);
      if (hit) return hit;
    }
    if (!at.param) return undefined;
    names.push(at.param.name);
    values.push(seg);
    const hit = this.walk(at.param.node, segs, i + 1, names, values);
    if (hit) return hit;
    names.pop();
    values.pop();
    return undefined;
  }
}
