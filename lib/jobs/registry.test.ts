import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Actor, systemActor } from '../auth/actor';
import { ROLE_PERMISSIONS } from '../auth/permissions';
import { defineJobKind, type JobKind, jobSpec } from './kind';
import { describeJobKinds, JobRegistry } from './registry';

const operator: Actor = { ...systemActor, kind: 'user', userId: null, label: 'op@example.com', role: 'operator', permissions: ROLE_PERMISSIONS.operator };
const echo = defineJobKind({
  name: 'test.echo',
  title: (p) => `echo ${p.text}`,
  params: z.strictObject({ text: z.string(), times: z.number().default(1) }),
  startPermission: 'jobs.run',
  concurrency: 1,
  maxAttempts: 1,
  resumable: false,
});
const internal = defineJobKind({
  name: 'test.internal',
  title: () => 'internal',
  params: z.strictObject({}),
  concurrency: 3,
  maxAttempts: 2,
  resumable: true,
  effects: ['x'],
});

describe('job kinds and the registry', () => {
  it('holds each kind once, with its handler, looked up by name', async () => {
    const r = new JobRegistry().register(echo, async (ctx) => ctx.params.text.repeat(ctx.params.times)).register(internal, async () => null);
    expect(r.kinds().map((k) => k.name)).toEqual(['test.echo', 'test.internal']);
    expect(r.get('test.echo')?.kind).toBe(echo);
    expect(r.get('nope')).toBeUndefined();
    expect(() => r.require('nope')).toThrow(expect.objectContaining({ code: 'validation', message: expect.stringContaining('test.echo, test.internal') }));
    // The same descriptor again is harmless; another one with the same name is a programming error.
    expect(() => r.register(echo, async () => '')).not.toThrow();
    const twin = defineJobKind({ ...echo, params: z.strictObject({ text: z.string() }) });
    expect(() => r.register(twin, async () => '')).toThrow(/Two job kinds are named "test.echo"/);
  });

  it('refuses names outside the grammar and limits below one', () => {
    expect(() => defineJobKind({ ...internal, name: 'Bad Name' })).toThrow(/lowercase/);
    expect(() => defineJobKind({ ...internal, concurrency: 0 })).toThrow(/at least 1/);
  });

  it('describes the kinds with what the actor may start and retry', () => {
    const r = new JobRegistry().register(echo, async () => '').register(internal, async () => null);
    expect(describeJobKinds(r, operator)).toEqual([
      {
        kind: 'test.echo',
        startable: true,
        startPermission: 'jobs.run',
        requiredRole: 'operator',
        canStart: true,
        retryPermission: 'jobs.run',
        canRetry: true,
        concurrency: 1,
        maxAttempts: 1,
        resumable: false,
      },
      {
        kind: 'test.internal',
        startable: false,
        startPermission: null,
        requiredRole: null,
        canStart: false,
        retryPermission: null,
        canRetry: false,
        concurrency: 3,
        maxAttempts: 2,
        resumable: true,
      },
    ]);
  });

  it('holds a handler to the result type its kind declares', () => {
    const counted: JobKind<Record<string, never>, { n: number }> = defineJobKind({ ...internal, name: 'test.counted' });
    const r = new JobRegistry().register(counted, async () => ({ n: 1 }));
    // @ts-expect-error the handler must return the kind's result
    expect(() => r.register(counted, async () => ({ n: 'one' }))).not.toThrow();
  });

  it('takes params as callers write them (schema defaults may be left out)', () => {
    expect(jobSpec(echo, { text: 'hi' }).params).toEqual({ text: 'hi' });
    // @ts-expect-error text is required
    expect(jobSpec(echo, {}).kind).toBe(echo);
  });
});
