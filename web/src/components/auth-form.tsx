import { Form, type FormInstance, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useValidateAfterSubmit } from './account-fields';

/**
 * The sign-in and registration form's frame: the page title, a vertical form whose
 * messages appear only after the first submit attempt (docs/domain.md §10), and
 * `onSubmit` called only with valid values.
 */
export function AuthForm<T extends object>({
  title,
  form,
  onSubmit,
  children,
}: {
  title: string;
  form?: FormInstance<T>;
  onSubmit: (values: T) => Promise<void>;
  children: ReactNode;
}) {
  const { validateTrigger, onSubmitAttempt } = useValidateAfterSubmit();
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {title}
      </Typography.Title>
      <Form<T>
        form={form}
        layout="vertical"
        requiredMark={false}
        validateTrigger={validateTrigger}
        onFinish={(values) => {
          onSubmitAttempt();
          void onSubmit(values);
        }}
        onFinishFailed={onSubmitAttempt}
      >
        {children}
      </Form>
    </>
  );
}
