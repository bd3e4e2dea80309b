import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from '@rodmenys/contract';
import { Button, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/call';
import { useRegister } from '../../api/hooks';
import { useAlert } from '../../components/alert';
import { useErrorText } from '../../components/load-error';

interface RegisterForm {
  firstName: string;
  lastName: string;
  username: string;
  password: string;
}

/** Registration (spec.md §2, §5): validated first, the call made only when valid; success → /login. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { setAlert } = useAlert();
  const errorText = useErrorText();
  const register = useRegister();
  const [form] = Form.useForm<RegisterForm>();
  const [submitted, setSubmitted] = useState(false);

  const onFinish = async (values: RegisterForm) => {
    setAlert(null);
    try {
      await register.mutateAsync({ body: values });
      navigate('/login', { state: { alert: { type: 'success', message: t('register.success') } } });
    } catch (error) {
      setAlert({ type: 'danger', message: errorText(error) });
      if (error instanceof ApiError && error.errors) {
        const names = new Set<string>(['firstName', 'lastName', 'username', 'password']);
        form.setFields(
          error.errors
            .filter((e) => names.has(e.field))
            .map((e) => ({ name: e.field as keyof RegisterForm, errors: [e.message] })),
        );
      }
    }
  };

  const required = (message: string) => ({ required: true, whitespace: true, message });
  return (
    <>
      <Typography.Title level={4} className="page-title">
        {t('register.title')}
      </Typography.Title>
      <Form<RegisterForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        validateTrigger={submitted ? 'onChange' : false}
        onFinish={(values) => {
          setSubmitted(true);
          void onFinish(values);
        }}
        onFinishFailed={() => setSubmitted(true)}
      >
        <Form.Item label={t('register.firstName')} name="firstName" rules={[required(t('register.firstNameRequired'))]}>
          <Input autoComplete="given-name" maxLength={NAME_MAX_LENGTH} autoFocus />
        </Form.Item>
        <Form.Item label={t('register.lastName')} name="lastName" rules={[required(t('register.lastNameRequired'))]}>
          <Input autoComplete="family-name" maxLength={NAME_MAX_LENGTH} />
        </Form.Item>
        <Form.Item label={t('register.username')} name="username" rules={[required(t('register.usernameRequired'))]}>
          <Input autoComplete="username" maxLength={USERNAME_MAX_LENGTH} />
        </Form.Item>
        <Form.Item
          label={t('register.password')}
          name="password"
          rules={[
            { required: true, message: t('register.passwordRequired') },
            { min: PASSWORD_MIN_LENGTH, message: t('register.passwordMin', { count: PASSWORD_MIN_LENGTH }) },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />
        </Form.Item>
        <Flex gap={12} align="center" justify="space-between">
          <Link to="/login">{t('common.cancel')}</Link>
          <Button type="primary" htmlType="submit" loading={register.isPending} disabled={register.isPending}>
            {t('register.submit')}
          </Button>
        </Flex>
      </Form>
    </>
  );
}
