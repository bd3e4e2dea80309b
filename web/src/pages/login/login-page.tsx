import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { USERNAME_MAX_LENGTH } from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/call';
import { useAuthenticate } from '../../api/users';
import { useAlert } from '../../components/alert';
import { AuthForm } from '../../components/auth-form';
import { useErrorText } from '../../components/load-error';
import { returnPath } from '../../components/shell/require-user';
import { signOut } from '../../session';
import { setSession } from '../../storage';

interface LoginForm {
  username: string;
  password: string;
}

/** Sign-in (docs/domain.md §10). Opening it signs the current user out. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { setAlert } = useAlert();
  const errorText = useErrorText();
  const authenticate = useAuthenticate();

  useEffect(() => {
    void signOut(queryClient);
  }, [queryClient]);

  const onFinish = async (values: LoginForm) => {
    setAlert(null);
    try {
      const user = await authenticate.mutateAsync({ body: values });
      setSession(user);
      // Back to the page that sent here (the route guard remembers it), else home.
      navigate(returnPath(location.state));
    } catch (error) {
      await signOut(queryClient);
      // Every refused sign-in gets one answer from the server (it reveals nothing); shown translated.
      const refused = error instanceof ApiError && error.status === 400 && !error.errors?.length;
      setAlert({ type: 'danger', message: refused ? t('login.refused') : errorText(error) });
    }
  };

  return (
    <>
      <AuthForm<LoginForm> title={t('login.title')} onSubmit={onFinish}>
        <Form.Item
          label={t('login.username')}
          name="username"
          rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
        >
          <Input prefix={<UserOutlined />} autoComplete="username" maxLength={USERNAME_MAX_LENGTH} autoFocus />
        </Form.Item>
        <Form.Item
          label={t('login.password')}
          name="password"
          rules={[{ required: true, message: t('login.passwordRequired') }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={authenticate.isPending}
          disabled={authenticate.isPending}
        >
          {t('login.submit')}
        </Button>
      </AuthForm>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
      </Typography.Paragraph>
    </>
  );
}
