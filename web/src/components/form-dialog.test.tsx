import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/call';
import { render } from '../test/render';
import { FormDialog } from './form-dialog';
import { RequiredTextArea } from './form-fields';

function Reason({
  onSave,
  onClose,
}: {
  onSave: (v: { reason: string }) => Promise<unknown>;
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <FormDialog title="Priežastis" form={form} onSave={onSave} onClose={onClose} pending={false}>
      <RequiredTextArea
        name="reason"
        label="Priežastis"
        requiredMessage="Parašykite priežastį"
        rows={2}
        maxLength={50}
      />
    </FormDialog>
  );
}

// antd's first render under jsdom is slow on a busy machine.
describe('an edit dialog (FormDialog)', { timeout: 90_000 }, () => {
  it('checks its fields, keeps what was typed when the server refuses and says why, closes when saved', async () => {
    const onSave = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(409, 'Čia jau yra vieta pavadinimu „A“'))
      .mockResolvedValueOnce(undefined);
    const onClose = vi.fn();
    await render(<Reason onSave={onSave} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByRole('button', { name: 'Išsaugoti' });

    // Only spaces: refused by the field's rule, nothing sent.
    await userEvent.type(within(dialog).getByLabelText('Priežastis'), '   ');
    await userEvent.click(save);
    expect(await within(dialog).findByText('Parašykite priežastį')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    await userEvent.type(within(dialog).getByLabelText('Priežastis'), 'sugedo');
    await userEvent.click(save);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Čia jau yra vieta pavadinimu „A“');
    expect(onSave).toHaveBeenLastCalledWith({ reason: '   sugedo' });
    expect(onClose).not.toHaveBeenCalled();

    await userEvent.click(save);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(onClose).toHaveBeenCalledWith(true);
    expect(onSave).toHaveBeenCalledTimes(2);
  });

  it('Cancel closes without saving', async () => {
    const onSave = vi.fn();
    const onClose = vi.fn();
    await render(<Reason onSave={onSave} onClose={onClose} />, { language: 'en' });
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledWith(false);
    expect(onSave).not.toHaveBeenCalled();
  });
});

function Move({ onSave }: { onSave: (v: { day: string; name: string }) => Promise<unknown> }) {
  const [form] = Form.useForm<{ day: string; name: string }>();
  return (
    <FormDialog title="Persikraustymas" form={form} onSave={onSave} onClose={() => undefined} pending={false}>
      <Form.Item name="day" label="Diena">
        <Input />
      </Form.Item>
      <Form.Item name="name" label="Vardas">
        <Input />
      </Form.Item>
    </FormDialog>
  );
}

describe('a refusal in an edit dialog', { timeout: 90_000 }, () => {
  it('is said on the field it names, marked and focused, and leaves when the field is changed', async () => {
    const refusal = 'Laukas „Diena“ negali būti ateityje';
    const onSave = vi
      .fn()
      .mockRejectedValue(
        new ApiError(400, refusal, [
          { field: 'day', code: 'timeInFuture', params: { field: 'day' }, message: refusal },
        ]),
      );
    await render(<Move onSave={onSave} />);
    const dialog = await screen.findByRole('dialog');
    const day = within(dialog).getByLabelText('Diena');
    await userEvent.type(day, '2999-01-01');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Išsaugoti' }));
    await waitFor(() => expect(day.getAttribute('aria-invalid')).toBe('true'));
    const explain = dialog.querySelector(`#${day.id}_help`);
    expect(explain?.textContent).toBe(refusal);
    expect(document.activeElement).toBe(day);
    // Said once, at its field: not again above the form.
    expect(within(dialog).queryByRole('alert', { name: refusal })).toBeNull();
    expect(within(dialog).getAllByText(refusal)).toHaveLength(1);
    expect(within(dialog).getByLabelText('Vardas').getAttribute('aria-invalid')).toBeNull();
    await userEvent.type(day, '{backspace}2');
    await waitFor(() => expect(day.getAttribute('aria-invalid')).toBeNull());
    await waitFor(() => expect(within(dialog).queryByText(refusal)).toBeNull());
  });

  it('naming a field the form does not have, is said above the form', async () => {
    const onSave = vi
      .fn()
      .mockRejectedValue(
        new ApiError(400, 'Nežinoma vieta', [{ field: 'locationIds', code: 'x', message: 'Nežinoma vieta' }]),
      );
    await render(<Move onSave={onSave} />, { language: 'en' });
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Nežinoma vieta');
  });
});

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Pervadinti
      </button>
      {open && <Reason onSave={async () => undefined} onClose={() => setOpen(false)} />}
    </>
  );
}

// docs/accessibility.md, "Keyboard": a dialog that closes gives the focus back to what opened it.
describe('an edit dialog that closes', { timeout: 90_000 }, () => {
  it('gives the focus back to the button that opened it, on Cancel and after a save', async () => {
    await render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Pervadinti' });
    for (const button of ['Atšaukti', 'Išsaugoti']) {
      opener.focus();
      await userEvent.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog');
      await userEvent.type(within(dialog).getByLabelText('Priežastis'), 'sugedo');
      await userEvent.click(within(dialog).getByRole('button', { name: button }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(opener));
    }
  });
});

function Reading({ onSave }: { onSave: (v: { value: number }) => Promise<unknown> }) {
  const [form] = Form.useForm<{ value: number }>();
  return (
    <FormDialog title="Skambutis" form={form} onSave={onSave} onClose={() => undefined} pending={false}>
      <Form.Item name="value" label="Rodmuo">
        <Input />
      </Form.Item>
    </FormDialog>
  );
}

// docs/accessibility.md, "One name per thing": a refusal at a field names it by its label, its numbers in the language.
describe('a refusal said at a field', { timeout: 90_000 }, () => {
  for (const [language, said] of [
    ['lt', 'Rodmuo: reikšmė mažesnė už ankstesnę (111,908)'],
    ['en', 'Rodmuo is below the previous value 111.908'],
  ] as const) {
    it(`names the field as its label does and writes the number as the language does (${language})`, async () => {
      const body = {
        code: 'declarationBelowPrevious',
        params: { field: 'value', previous: '111.908' },
        message: 'value is below the previous value 111.908',
        errors: [
          {
            field: 'value',
            code: 'declarationBelowPrevious',
            params: { field: 'value', previous: '111.908' },
            message: 'value is below the previous value 111.908',
          },
        ],
      };
      await render(<Reading onSave={() => Promise.reject(ApiError.fromBody(400, body))} />, { language });
      const dialog = await screen.findByRole('dialog');
      await userEvent.click(within(dialog).getByRole('button', { name: language === 'lt' ? 'Išsaugoti' : 'Save' }));
      const field = within(dialog).getByLabelText('Rodmuo');
      await waitFor(() => expect(dialog.querySelector(`#${field.id}_help`)?.textContent).toBe(said));
    });
  }
});
