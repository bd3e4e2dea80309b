import { Form, type FormItemProps, InputNumber, type InputNumberProps } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { decimalSeparator, formatDecimal } from '../format';
import { useLanguage } from '../i18n';

/*
 * Number fields (docs/accessibility.md, "Number fields"): a number is never saved as something other
 * than what was typed. antd's InputNumber given `min`/`max` moves a typed value into the range when
 * the field loses the focus or Enter is pressed (60 in 0..50 becomes 50), and `precision` rounds it
 * (1.5 with no decimals becomes 2), silently. So the field is drawn without them, and its range is a
 * rule of the form instead: the value stays as typed, the field says what it takes, in the UI
 * language, and the form is not sent.
 */

/** What a number field takes: its bounds (inclusive), a whole number, at most so many decimals. */
export interface NumberRange {
  min?: number;
  max?: number;
  integer?: boolean;
  decimals?: number;
}

/** The refusal of `value` by `range`, in the language of `t`; null when it is taken (an empty field too). */
export function numberRefusal(value: unknown, range: NumberRange, t: TFunction, language: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const { min, max, integer, decimals } = range;
  const whole = integer ? 'Whole' : '';
  const bounds = { min: formatDecimal(min, language), max: formatDecimal(max, language) };
  const rangeText = () =>
    min !== undefined && max !== undefined
      ? t(`validation.number${whole}Between`, bounds)
      : min !== undefined
        ? t(`validation.number${whole}AtLeast`, bounds)
        : max !== undefined
          ? t(`validation.number${whole}AtMost`, bounds)
          : t(integer ? 'validation.wholeNumber' : 'validation.aNumber');
  if (typeof value !== 'number' || !Number.isFinite(value)) return rangeText();
  if (integer && !Number.isInteger(value)) return rangeText();
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) return rangeText();
  if (decimals !== undefined && Number(value.toFixed(decimals)) !== value)
    return t('validation.decimals', { count: decimals });
  return null;
}

/** The form rule of a number field's range, its message in the UI language. */
export function useNumberRule(): (range: NumberRange) => Rule {
  const { t } = useTranslation();
  const language = useLanguage();
  return (range) => ({
    validator: async (_, value: unknown) => {
      const refusal = numberRefusal(value, range, t, language);
      if (refusal) throw new Error(refusal);
    },
  });
}

/** antd's InputNumber props without those that change a typed value (a range and rounding are rules). */
export type NumberInputProps = Omit<InputNumberProps<number>, 'min' | 'max' | 'precision' | 'controls'>;

/**
 * The app's number input: no spinner buttons (docs/accessibility.md), the UI language's decimal
 * separator, the width of its field; it never clamps or rounds what is typed.
 */
export function NumberInput(props: NumberInputProps) {
  const language = useLanguage();
  return (
    <InputNumber controls={false} decimalSeparator={decimalSeparator(language)} style={{ width: '100%' }} {...props} />
  );
}

/**
 * A form's number field: the form item with its range as a rule (refused at the field, in the UI
 * language, the dialog kept open with what was typed) and the app's number input.
 */
export function NumberField({
  range,
  rules = [],
  input,
  ...item
}: Omit<FormItemProps, 'children'> & { range: NumberRange; input?: NumberInputProps }) {
  const rule = useNumberRule();
  return (
    <Form.Item {...item} rules={[...rules, rule(range)]}>
      <NumberInput {...input} />
    </Form.Item>
  );
}

/**
 * A number outside a form of its own (a list's filter: "due within N months"): the field with its
 * label; a value outside its range is refused beside it and not applied (the list keeps the last
 * value taken), nothing changed into another number.
 */
export function NumberFilter({
  id,
  label,
  value,
  onChange,
  range,
}: {
  id: string;
  label: string;
  value: number;
  onChange: (value: number) => void;
  range: NumberRange;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const rule = useNumberRule();
  const [form] = Form.useForm<{ value: number | null }>();
  return (
    <Form
      form={form}
      name={`${id}-form`}
      layout="inline"
      initialValues={{ value }}
      // Applied only when taken (the field's own rules say why not, beside it).
      onValuesChange={({ value: next }: { value?: number | null }) => {
        if (typeof next === 'number' && numberRefusal(next, range, t, language) === null) onChange(next);
      }}
      onFinish={() => undefined}
    >
      <Form.Item
        name="value"
        label={label}
        rules={[{ required: true, message: t('validation.aNumber') }, rule(range)]}
        style={{ marginInlineEnd: 0 }}
        // The label names the input by its own id (the form would give it "<id>_value").
        htmlFor={id}
      >
        <NumberInput id={id} style={{ width: 90 }} />
      </Form.Item>
    </Form>
  );
}
