// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderComponent } from '@/test/helpers/render-component';
import { ApiError } from '../api';
import { CheckField } from '../ui/input';
import { useCan } from '../viewer';
import { ListField, NumberField } from './fields';
import { SettingsForm } from './settings-form';
import { draftFields, useSettingsDraft } from './use-settings-draft';

// A settings form built the way the settings cards build theirs: a draft of stored values held as text, one zod
// schema judging it, the shared shell, fields and draft binding. Saving goes to `onSave`, standing where the
// server action stands.
type Stored = { maxPerUser: number; hosts: string[]; record: boolean };
type Form = { maxPerUser: string; hosts: string; record: boolean };
const schema = z.object({
  maxPerUser: z.string().regex(/^\d+$/, 'Enter a whole number').transform(Number).pipe(z.number().min(1, 'At least 1').max(50, 'At most 50')),
  hosts: z.string().transform((s) => s.split('\n').filter(Boolean)),
  record: z.boolean(),
});
const LABELS: Record<keyof Form, string> = { maxPerUser: 'terminals per user', hosts: 'hosts', record: 'recording' };
const toForm = (s: Stored): Form => ({ maxPerUser: String(s.maxPerUser), hosts: s.hosts.join('\n'), record: s.record });

function TestSettings({ initial, onSave }: { initial: Stored; onSave: (patch: Partial<Stored>) => Promise<Stored> }) {
  const can = useCan('terminals.manage');
  const [stored, setStored] = useState(initial);
  const draft = useSettingsDraft(stored, toForm);
  const [save, setSave] = useState<{ error: unknown; isPending: boolean }>({ error: null, isPending: false });
  if (!draft.form) return null;
  const parsed = schema.safeParse(draft.form);
  const errors: Record<string, string> = { ...draft.serverIssues };
  if (!parsed.success) for (const i of parsed.error.issues) errors[String(i.path[0])] ??= i.message;
  const patch: Partial<Stored> = {};
  if (parsed.success)
    for (const k of ['maxPerUser', 'hosts', 'record'] as const)
      if (JSON.stringify(parsed.data[k]) !== JSON.stringify(stored[k])) Object.assign(patch, { [k]: parsed.data[k] });
  const changed = Object.keys(patch) as (keyof Form)[];
  const f = draftFields(draft.form, draft.set, errors);
  return (
    <SettingsForm
      label="Test settings"
      testId="test-settings-form"
      can={can}
      save={save}
      valid={parsed.success}
      changed={changed.map((k) => LABELS[k])}
      onSave={() => {
        setSave({ error: null, isPending: true });
        onSave(patch).then(
          (next) => {
            setStored(next);
            draft.reset(next);
            setSave({ error: null, isPending: false });
          },
          (e) => {
            draft.onSaveError(e);
            setSave({ error: e, isPending: false });
          },
        );
      }}
      onDiscard={() => draft.reset(stored)}
    >
      <NumberField label="Terminals per user" id="t-per-user" hint="Open at once (1 to 50)." {...f.text('maxPerUser')} />
      <ListField label="Hosts" id="t-hosts" hint="One per line." {...f.text('hosts')} />
      <CheckField id="t-record" label="Record transcripts" hint="All output of new terminals." {...f.check('record')} />
    </SettingsForm>
  );
}

const initial: Stored = { maxPerUser: 4, hosts: ['a.example'], record: false };
/** A save the test answers itself: `answer(next)` or `fail(error)`. */
function pendingSave() {
  let answer: (s: Stored) => void = () => {};
  let fail: (e: unknown) => void = () => {};
  const onSave = vi.fn(
    (_patch: Partial<Stored>) =>
      new Promise<Stored>((res, rej) => {
        answer = res;
        fail = rej;
      }),
  );
  return { onSave, answer: (s: Stored) => answer(s), fail: (e: unknown) => fail(e) };
}
const perUser = () => screen.getByLabelText('Terminals per user') as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: /^(Save|Saving…)$/ }) as HTMLButtonElement;
const status = () => screen.getByText(/unsaved|Fix the fields/i);
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

describe('the settings form shell and its fields', () => {
  it('shows a field’s validation message inline in place of its hint and blocks Save until it is fixed', () => {
    renderComponent(<TestSettings initial={initial} onSave={pendingSave().onSave} />);
    expect(screen.getByText('Open at once (1 to 50).')).toBeTruthy();
    type(perUser(), '0');
    expect(screen.getByRole('alert').textContent).toBe('At least 1');
    expect(screen.queryByText('Open at once (1 to 50).')).toBeNull();
    expect(perUser().getAttribute('aria-invalid')).toBe('true');
    expect(status().textContent).toBe('Fix the fields marked in red to save');
    expect(saveButton().disabled).toBe(true);
    type(perUser(), 'ten');
    expect(screen.getByRole('alert').textContent).toBe('Enter a whole number');
    type(perUser(), '10');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(perUser().getAttribute('aria-invalid')).toBe('false');
    expect(status().textContent).toBe('Unsaved: terminals per user');
    expect(saveButton().disabled).toBe(false);
  });

  it('saves only what changed, is disabled while the save is pending, and is clean again after it', async () => {
    const save = pendingSave();
    renderComponent(<TestSettings initial={initial} onSave={save.onSave} />);
    expect(saveButton().disabled).toBe(true);
    expect(status().textContent).toBe('No unsaved changes');
    type(perUser(), '8');
    fireEvent.click(screen.getByLabelText('Record transcripts'));
    expect(status().textContent).toBe('Unsaved: terminals per user, recording');
    fireEvent.submit(screen.getByTestId('test-settings-form'));
    expect(save.onSave).toHaveBeenCalledWith({ maxPerUser: 8, record: true });
    expect(saveButton().textContent).toContain('Saving…');
    expect(saveButton().disabled).toBe(true);
    expect(perUser().closest('fieldset')?.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Discard' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => save.answer({ maxPerUser: 8, hosts: ['a.example'], record: true }));
    expect(saveButton().textContent).toContain('Save');
    expect(saveButton().disabled).toBe(true);
    expect(perUser().closest('fieldset')?.disabled).toBe(false);
    expect(perUser().value).toBe('8');
    expect((screen.getByLabelText('Record transcripts') as HTMLInputElement).checked).toBe(true);
    expect(status().textContent).toBe('No unsaved changes');
  });

  it('shows a server’s field issue at its field until the field is edited, and Discard goes back to what is stored', async () => {
    const save = pendingSave();
    renderComponent(<TestSettings initial={initial} onSave={save.onSave} />);
    type(screen.getByLabelText('Hosts'), 'a.example\nb.example');
    fireEvent.submit(screen.getByTestId('test-settings-form'));
    expect(save.onSave).toHaveBeenCalledWith({ hosts: ['a.example', 'b.example'] });
    await act(async () => save.fail(new ApiError(400, 'validation', 'Some fields are not valid.', [{ path: 'hosts.1', message: 'b.example is not allowed' }])));
    expect(screen.getByRole('alert').textContent).toBe('b.example is not allowed');
    expect(screen.getByLabelText('Hosts').getAttribute('aria-invalid')).toBe('true');
    // A field issue is shown at its field, not again as a form-wide error.
    expect(screen.queryByText('Some fields are not valid.')).toBeNull();
    type(screen.getByLabelText('Hosts'), 'a.example\nc.example');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect((screen.getByLabelText('Hosts') as HTMLTextAreaElement).value).toBe('a.example');
    expect(status().textContent).toBe('No unsaved changes');
  });

  it('shows a failed save that is not about one field above the fields', async () => {
    const save = pendingSave();
    renderComponent(<TestSettings initial={initial} onSave={save.onSave} />);
    type(perUser(), '5');
    fireEvent.submit(screen.getByTestId('test-settings-form'));
    await act(async () => save.fail(new ApiError(409, 'conflict', 'The settings changed meanwhile; reload them.')));
    expect(screen.getByText('The settings changed meanwhile; reload them.')).toBeTruthy();
    expect(perUser().value).toBe('5');
    expect(saveButton().disabled).toBe(false);
  });

  it('is read only for a viewer, naming the role needed, and does not save', () => {
    const save = pendingSave();
    renderComponent(<TestSettings initial={initial} onSave={save.onSave} />, { role: 'viewer' });
    expect(screen.getByText('Read only: Needs the admin role (you are viewer).')).toBeTruthy();
    // Every field sits in the disabled fieldset (a browser disables its controls; happy-dom does not say so on the control).
    expect(perUser().closest('fieldset')?.disabled).toBe(true);
    expect(screen.getByLabelText('Record transcripts').closest('fieldset')).toBe(perUser().closest('fieldset'));
    expect(saveButton().disabled).toBe(true);
    fireEvent.submit(screen.getByTestId('test-settings-form'));
    expect(save.onSave).not.toHaveBeenCalled();
  });
});
