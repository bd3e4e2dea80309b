import { Form, Input } from 'antd';

/**
 * A text that must be written (blank or only spaces is refused with `requiredMessage`): a reason,
 * a comment. Several lines; at most `maxLength` characters.
 */
export function RequiredTextArea({
  name,
  label,
  requiredMessage,
  rows,
  maxLength,
}: {
  name: string;
  label: string;
  requiredMessage: string;
  rows: number;
  maxLength: number;
}) {
  return (
    <Form.Item name={name} label={label} rules={[{ required: true, whitespace: true, message: requiredMessage }]}>
      <Input.TextArea rows={rows} maxLength={maxLength} />
    </Form.Item>
  );
}
