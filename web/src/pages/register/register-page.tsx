import { USERNAME_MAX_LENGTH } from '@rodmenys/contract';
import { Button, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/call';
import { useRegister } from '../../api/users';
import { NameFields, NewPasswordField } from '../../components/account-fields';
import { useAlert } from '../../components/alert';
import { AuthForm } from '../../components/auth-form';
import { useErrorText } from '../../components/load-error';

interface RegisterForm {
  firstName: string;
  lastName: string;
  username: string;
  password: string;
}

/** Registration (docs/domain.md §10): validated first, the call made only when valid; success → /login. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { setAlert } = useAlert();
  const errorText = useErrorText();
  const register = useRegister();
  const [form] = Form.useForm<RegisterForm>();

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

  return (
    <AuthForm<RegisterForm> title={t('register.title')} form={form} onSubmit={onFinish}>
      <NameFields autoFocus />
      <Form.Item
        label={t('register.username')}
        name="username"
        rules={[{ required: true, whitespace: true, message: t('register.usernameRequired') }]}
      >
        <Input autoComplete="username" maxLength={USERNAME_MAX_LENGTH} />
      </Form.Item>
      <NewPasswordField name="password" label={t('register.password')} />
      <Flex gap={12} align="center" justify="space-between">
        <Link to="/login">{t('common.cancel')}</Link>
        <Button type="primary" htmlType="submit" loading={register.isPending} disabled={register.isPending}>
          {t('register.submit')}
        </Button>
      </Flex>
    </AuthForm>
  );
}
