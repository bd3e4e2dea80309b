import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
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
