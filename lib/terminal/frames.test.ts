import { describe, expect, it } from 'vitest';
import { CLOSE, type ClientFrame, encodeServerFrame, MAX_INPUT_FRAME_BYTES, parseClientFrame, parseGeometry } from './frames';

const text = (s: string) => parseClientFrame(Buffer.from(s), false);
const closeOf = (f: ClientFrame) => (f.kind === 'refused' ? f.close : f.kind);

describe('terminal frames', () => {
  it('has distinct 4000-range close codes with short reasons', () => {
    const codes = Object.values(CLOSE).map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of Object.values(CLOSE)) {
      expect(c.code).toBeGreaterThanOrEqual(4000);
      expect(c.code).toBeLessThan(5000);
      expect(Buffer.byteLength(c.reason)).toBeLessThan(123);
    }
    for (const k of ['idle', 'revoked', 'sandbox_gone', 'limit', 'bad_frame', 'internal'] as const) expect(CLOSE[k]).toBeDefined();
  });

  it('passes binary input up to 4 KiB and refuses larger frames with the limit code', () => {
    const ok = parseClientFrame(Buffer.alloc(MAX_INPUT_FRAME_BYTES, 0x61), true);
    expect(ok.kind).toBe('input');
    expect(closeOf(parseClientFrame(Buffer.alloc(MAX_INPUT_FRAME_BYTES + 1), true))).toBe('limit');
    const fragments = parseClientFrame([Buffer.from('ec'), Buffer.from('ho')], true);
    expect(fragments).toEqual({ kind: 'input', bytes: Buffer.from('echo') });
  });

  it('parses resize and ping control frames', () => {
    expect(text('{"type":"resize","cols":120,"rows":40}')).toEqual({ kind: 'resize', cols: 120, rows: 40 });
    expect(text('{"type":"resize","cols":1,"rows":500}')).toEqual({ kind: 'resize', cols: 1, rows: 500 });
    expect(text('{"type":"ping"}')).toEqual({ kind: 'ping' });
  });

  it('refuses absurd geometry', () => {
    for (const [cols, rows] of [
      ['0', '24'],
      ['80', '0'],
      ['10000', '24'],
      ['80', '501'],
      ['-1', '24'],
      ['80.5', '24'],
      ['"80"', '24'],
      ['null', '24'],
      ['80', '"x"'],
      ['1e309', '24'],
      ['[80]', '24'],
    ]) {
      expect(closeOf(text(`{"type":"resize","cols":${cols},"rows":${rows}}`))).toBe('bad_frame');
    }
    expect(closeOf(text('{"type":"resize","cols":80}'))).toBe('bad_frame');
    expect(closeOf(text('{"type":"resize","cols":80,"rows":24,"extra":1}'))).toBe('bad_frame');
  });

  it('refuses invalid UTF-8, non-JSON, unknown types and oversized control frames', () => {
    expect(closeOf(parseClientFrame(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), false))).toBe('bad_frame');
    expect(closeOf(parseClientFrame(Buffer.from([0xc3, 0x28]), false))).toBe('bad_frame');
    expect(closeOf(text('echo hi'))).toBe('bad_frame');
    expect(closeOf(text(''))).toBe('bad_frame');
    expect(closeOf(text('null'))).toBe('bad_frame');
    expect(closeOf(text('[1,2]'))).toBe('bad_frame');
    expect(closeOf(text('{"type":"exec","cmd":"rm"}'))).toBe('bad_frame');
    expect(closeOf(text('{"cols":80,"rows":24}'))).toBe('bad_frame');
    expect(closeOf(text(JSON.stringify({ type: 'ping', pad: 'x'.repeat(2000) })))).toBe('limit');
    const f = text('{"type":"nope"}');
    expect(f.kind === 'refused' && f.message).toMatch(/unknown/);
  });

  it('encodes server control frames as JSON text', () => {
    expect(JSON.parse(encodeServerFrame({ type: 'ready', sessionId: 's1', replayFrom: 42 }))).toEqual({ type: 'ready', sessionId: 's1', replayFrom: 42 });
    expect(JSON.parse(encodeServerFrame({ type: 'exited', code: 3 }))).toEqual({ type: 'exited', code: 3 });
    expect(JSON.parse(encodeServerFrame({ type: 'error', code: 'limit', message: 'm' }))).toEqual({ type: 'error', code: 'limit', message: 'm' });
    expect(encodeServerFrame({ type: 'pong' })).toBe('{"type":"pong"}');
  });

  it('reads the initial geometry from the query strictly', () => {
    expect(parseGeometry(null, undefined)).toEqual({ cols: 80, rows: 24 });
    expect(parseGeometry('132', '43')).toEqual({ cols: 132, rows: 43 });
    for (const bad of ['0', '501', '10000', '-5', '1e2', ' 80', '80px', '', '08', 'NaN']) {
      expect(parseGeometry(bad, '24')).toBeNull();
      expect(parseGeometry('80', bad)).toBeNull();
    }
  });
});
