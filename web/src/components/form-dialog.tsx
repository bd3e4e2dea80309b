import { Alert, Form, type FormInstance, type FormProps, Modal, type ModalProps } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/call';
import { fieldLabel, translateServerError } from '../api/error-text';
import { useErrorText } from './load-error';
import { type DialogClose, STATIC_MODAL, useDialogClose } from './modal-host';

/** A server field name (`day`, `devices.2.code`) as a form name path (`['devices', 2, 'code']`). */
const pathOf = (field: string): (string | number)[] =>
  field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * Puts a refusal's field errors (a 400 naming fields) on the form's fields that stand for them, marks
 * them and moves the focus to the first; `fields` maps a server name to the form's name where they
 * differ. Returns what found no field (to be said above the form), or null when everything was placed.
 */
export function placeRefusal<V>(
  form: FormInstance<V>,
  error: unknown,
  text: string,
  fields: Record<string, NamePath> = {},
  labelOf?: (name: (string | number)[]) => string | undefined,
): string | null {
  if (!(error instanceof ApiError) || !error.errors?.length) return text;
  const registered: string[] = [];
  form.getFieldsValue(true, (meta) => {
    if (meta) registered.push(JSON.stringify(meta.name));
    return false;
  });
  const placed: { name: (string | number)[]; errors: string[] }[] = [];
  const rest: string[] = [];
  for (const e of error.errors) {
    const mapped = fields[e.field] ?? pathOf(e.field);
    const name = Array.isArray(mapped) ? mapped : [mapped];
    // Said at its field, the field is named as its label names it (one name per thing: "Rodmuo", not "Reikšmė").
    const label = labelOf?.(name);
    const message =
      label && e.code && label !== fieldLabel(e.field) ? translateServerError(e, e.message, label) : e.message;
    if (registered.includes(JSON.stringify(name))) placed.push({ name, errors: [message] });
    else rest.push(e.message);
  }
  if (placed.length) {
    form.setFields(placed as Parameters<FormInstance<V>['setFields']>[0]);
    form.scrollToField(placed[0]!.name as NamePath<V>, { focus: true, block: 'nearest' });
  }
  if (!placed.length) return text;
  return rest.length ? rest.join(' ') : null;
}

interface FormDialogProps<V> {
  title: ReactNode;
  /** The form the dialog submits (from `Form.useForm`, so that the caller may read or set fields). */
  form: FormInstance<V>;
  /** Saves the values; a thrown error is shown in the dialog, which stays open with what was typed. */
  onSave: (values: V) => Promise<unknown>;
  /**
   * The dialog has closed: `saved` false on Cancel, true after a save. It is called once the dialog has
   * animated out and given the focus back to the control that opened it; a caller may then move it on.
   */
  onClose: (saved: boolean) => void;
  /** The dialog's closing, when its own controls close it too (`useDialogClose(onClose)`); else its own. */
  closing?: DialogClose<boolean>;
  /** The save is under way (Save shows it). */
  pending: boolean;
  /** The form's own props (layout, initial values, label columns). */
  formProps?: Omit<FormProps<V>, 'form' | 'onFinish'>;
  /** Text above the form. */
  intro?: ReactNode;
  /** What the submit button says, when it is more than "Save" (an action: "Acknowledge"). */
  okText?: ReactNode;
  footer?: ModalProps['footer'];
  width?: ModalProps['width'];
  /** The form's field for a field the server names, where the names differ (`removedAt` → `at`). */
  fields?: Record<string, NamePath>;
  /**
   * The fields. As a function they are given the part of the server's refusal that names no field of the
   * form, to show at a field of their choice; otherwise it is shown above the form, announced.
   */
  children: ReactNode | ((serverError: string | null) => ReactNode);
}

/**
 * A dialog around one form, as every edit dialog of the app is: a static backdrop, Save submits the
 * form (its rules first), Cancel closes, and what the server refuses is said in the dialog: on the
 * field it names (marked, focused; the mark goes when the field is changed), else above the form.
 */
export function FormDialog<V>({
  title,
  form,
  onSave,
  onClose,
  pending,
  formProps,
  intro,
  okText,
  footer,
  width,
  fields,
  closing,
  children,
}: FormDialogProps<V>) {
  const { t } = useTranslation();
  const own = useDialogClose(onClose);
  const { close, modalProps } = closing ?? own;
  const errorText = useErrorText();
  const [serverError, setServerError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  // A field's label in the dialog (antd's field id: the form's name, then the path, joined by "_").
  const labelOf = (name: (string | number)[]) => {
    const id = [...(formProps?.name ? [formProps.name] : []), ...name].join('_');
    const selector = `label[for="${id.replace(/["\\]/g, '\\$&')}"]`;
    return box.current?.querySelector(selector)?.textContent?.trim() || undefined;
  };
  const save = async (values: V) => {
    setServerError(null);
    try {
      await onSave(values);
      close(true);
    } catch (error) {
      setServerError(placeRefusal(form, error, errorText(error), fields, labelOf));
    }
  };
  const atField = typeof children === 'function';
  return (
    <Modal
      {...modalProps}
      {...STATIC_MODAL}
      title={title}
      okText={okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={() => close(false)}
      confirmLoading={pending}
      footer={footer}
      width={width}
    >
      {intro}
      {serverError && !atField && (
        <Alert type="error" showIcon role="alert" title={serverError} style={{ marginBottom: 12 }} />
      )}
      <div ref={box}>
        <Form<V>
          form={form}
          layout="vertical"
          {...formProps}
          onValuesChange={(changed, all) => {
            // A changed field drops the server's mark (its own rules check it again).
            const names = Object.keys(changed as object).filter((n) => form.getFieldError(n as NamePath).length);
            if (names.length) form.setFields(names.map((n) => ({ name: n as NamePath, errors: [] })));
            // A refusal is of what was sent: once a field changes (emptied, retyped) it no longer stands.
            setServerError(null);
            formProps?.onValuesChange?.(changed, all);
          }}
          onFinish={(values) => void save(values)}
        >
          {atField ? children(serverError) : children}
        </Form>
      </div>
    </Modal>
  );
}
