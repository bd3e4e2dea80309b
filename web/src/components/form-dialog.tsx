import { Form, type FormInstance, type FormProps, Modal, type ModalProps, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from './load-error';
import { STATIC_MODAL } from './modal-host';

interface FormDialogProps<V> {
  title: ReactNode;
  /** The form the dialog submits (from `Form.useForm`, so that the caller may read or set fields). */
  form: FormInstance<V>;
  /** Saves the values; a thrown error is shown in the dialog, which stays open with what was typed. */
  onSave: (values: V) => Promise<unknown>;
  /** Closes the dialog: `saved` false on Cancel, true after a save (a caller may then move the focus on). */
  onClose: (saved: boolean) => void;
  /** The save is under way (Save shows it). */
  pending: boolean;
  /** The form's own props (layout, initial values, label columns). */
  formProps?: Omit<FormProps<V>, 'form' | 'onFinish'>;
  /** Text above the form. */
  intro?: ReactNode;
  /** What the submit button says, when it is more than "Save" (an action: "Acknowledge"). */
  okText?: ReactNode;
  footer?: ModalProps['footer'];
  /**
   * The fields. As a function they are given the server's refusal to show at a field; otherwise it
   * is shown above the form, announced.
   */
  children: ReactNode | ((serverError: string | null) => ReactNode);
}

/**
 * A dialog around one form, as every edit dialog of the app is: a static backdrop, Save submits the
 * form (its rules first), Cancel closes, and what the server refuses is said in the dialog.
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
  children,
}: FormDialogProps<V>) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [serverError, setServerError] = useState<string | null>(null);
  const save = async (values: V) => {
    setServerError(null);
    try {
      await onSave(values);
      onClose(true);
    } catch (error) {
      setServerError(errorText(error));
    }
  };
  const atField = typeof children === 'function';
  return (
    <Modal
      open
      {...STATIC_MODAL}
      title={title}
      okText={okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      confirmLoading={pending}
      footer={footer}
    >
      {intro}
      {serverError && !atField && (
        <Typography.Paragraph type="danger" role="alert">
          {serverError}
        </Typography.Paragraph>
      )}
      <Form<V>
        form={form}
        layout="vertical"
        {...formProps}
        // A refusal is of what was sent: once a field changes (emptied, retyped) it no longer stands.
        onValuesChange={(changed, all) => {
          setServerError(null);
          formProps?.onValuesChange?.(changed, all);
        }}
        onFinish={(values) => void save(values)}
      >
        {atField ? children(serverError) : children}
      </Form>
    </Modal>
  );
}
