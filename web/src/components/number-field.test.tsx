import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { render } from '../test/render';
import { FormDialog } from './form-dialog';
import { NumberField, NumberFilter, numberRefusal } from './number-field';

function Share({ onSave }: { onSave: (v: { share: number }) => Promise<unknown> }) {
  const [form] = Form.useForm<{ share: number }>();
  return (
    <FormDialog
      title="Dalis"
      form={form}
      onSave={onSave}
      onClose={() => undefined}
      pending={false}
      formProps={{ initialValues: { share: 5 } }}
    >
      <NumberField name="share" label="Bendrųjų patalpų dalis" range={{ min: 0, max: 50 }} />
    </FormDialog>
  );
}

// docs/accessibility.md, "Number fields": a value outside the range is refused at the field, never moved into it.
describe('a number field with a range', { timeout: 90_000 }, () => {
  it('keeps 60 as typed after it loses the focus, says the range at the field and saves nothing', async () => {
    const onSave = vi.fn().mockResolvedValue(undefined);
    await render(<Share onSave={onSave} />);
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('Bendrųjų patalpų dalis') as HTMLInputElement;
    await userEvent.clear(field);
    await userEvent.type(field, '60');
    await userEvent.tab();
    expect(field.value).toBe('60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Išsaugoti' }));
    expect(await within(dialog).findByText('Įveskite skaičių nuo 0 iki 50')).toBeTruthy();
    expect(field.value).toBe('60');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(onSave).not.toHaveBeenCalled();

    // Within the range: saved as typed.
    await userEvent.clear(field);
    await userEvent.type(field, '12,5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Išsaugoti' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ share: 12.5 }));
  });

  it('says each refusal in the UI language, the bounds written as the language writes numbers', () => {
    const lt = i18n.getFixedT('lt');
    const en = i18n.getFixedT('en');
    expect(numberRefusal(1.5, { min: 0, max: 1 }, lt, 'lt')).toBe('Įveskite skaičių nuo 0 iki 1');
    expect(numberRefusal(70, { min: 0.1, max: 50 }, en, 'en')).toBe('Enter a number from 0.1 to 50');
    expect(numberRefusal(70, { min: 0.1, max: 50 }, lt, 'lt')).toBe('Įveskite skaičių nuo 0,1 iki 50');
    expect(numberRefusal(1.5, { min: 0, max: 60, integer: true }, lt, 'lt')).toBe(
      'Įveskite sveikąjį skaičių nuo 0 iki 60',
    );
    expect(numberRefusal(-1, { min: 0 }, en, 'en')).toBe('Enter a number of at least 0');
    expect(numberRefusal(12.345, { min: 0.01, max: 100_000, decimals: 2 }, en, 'en')).toBe(
      'At most 2 digits after the decimal point',
    );
    for (const taken of [null, undefined, '', 0, 50, 12.5])
      expect(numberRefusal(taken, { min: 0, max: 50 }, lt, 'lt')).toBeNull();
  });
});

describe('a number filter', { timeout: 90_000 }, () => {
  it('is named by its label, refuses a value outside its range beside it and keeps the last one taken', async () => {
    const onChange = vi.fn();
    await render(
      <NumberFilter
        id="due-months"
        label="Mėnesiai"
        value={3}
        onChange={onChange}
        range={{ min: 0, max: 60, integer: true }}
      />,
    );
    const field = screen.getByLabelText('Mėnesiai') as HTMLInputElement;
    expect(field.id).toBe('due-months');
    await userEvent.clear(field);
    await userEvent.type(field, '61');
    await userEvent.tab();
    expect(field.value).toBe('61');
    expect(await screen.findByText('Įveskite sveikąjį skaičių nuo 0 iki 60')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalledWith(61);
    await userEvent.clear(field);
    await userEvent.type(field, '12');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(12));
  });
});
