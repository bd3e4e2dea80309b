import { authenticate, getUser, PASSWORD_MAX_LENGTH, updateUser } from '@rodmenys/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Descriptions, Form, Input, Row, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/call';
import { keyOf } from '../../api/query';
import { useSignOutEverywhere, useUpdateUser, useUser } from '../../api/users';
import {
  ContactFields,
  type DetailsForm,
  detailsBody,
  detailsValues,
  NameFields,
  NewPasswordField,
} from '../../components/account-fields';
import { LoadError, useErrorText } from '../../components/load-error';
import { useConfirm } from '../../components/modal-host';
import { formatDateTime } from '../../format';
import { signOut, useSession } from '../../session';
import { setSession } from '../../storage';
import { DigestCard, StatementMailCard } from './digest-card';

interface PasswordForm {
  currentPassword: string;
  password: string;
  confirm: string;
}

/**
 * The signed-in user's own names, contacts and password, and signing out everywhere. A new password
 * ends every token of the account (docs/security.md), this one included: the page signs in again
 * with the new password so that the user stays signed in here.
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const session = useSession()!;
  const user = useUser(session.Id);
  const update = useUpdateUser();
  const signOutEverywhere = useSignOutEverywhere();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [changingPassword, setChangingPassword] = useState(false);
  const [passwordForm] = Form.useForm<PasswordForm>();

  const saveDetails = async (values: DetailsForm) => {
    try {
      const saved = await update.mutateAsync({
        params: { id: session.Id },
        body: detailsBody(values),
      });
      setSession({
        ...session,
        FirstName: saved.FirstName,
        LastName: saved.LastName,
        Email: saved.Email,
        Phone: saved.Phone,
      });
      message.success(t('profile.saved'));
    } catch (error) {
      message.error(errorText(error));
    }
  };
  const savePassword = async (values: PasswordForm) => {
    setChangingPassword(true);
    try {
      // Not through the cached mutation: its refetch would go out with the token the change just ended.
      await call(updateUser, {
        params: { id: session.Id },
        body: { currentPassword: values.currentPassword, password: values.password },
      });
      const renewed = await call(authenticate, { body: { username: session.Username, password: values.password } });
      setSession(renewed);
      await queryClient.invalidateQueries({ queryKey: keyOf(getUser) });
      passwordForm.resetFields();
      message.success(t('profile.passwordChanged'));
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setChangingPassword(false);
    }
  };
  const signOutHere = async () => {
    const yes = await confirm({
      title: t('profile.signOutEverywhereTitle'),
      content: t('profile.signOutEverywhereText'),
      okText: t('users.signOutEverywhere'),
    });
    if (!yes) return;
    try {
      await signOutEverywhere.mutateAsync({ params: { id: session.Id } });
      await signOut(queryClient);
    } catch (error) {
      message.error(errorText(error));
    }
  };

  if (user.isError) return <LoadError error={user.error} onRetry={() => void user.refetch()} />;
  if (!user.data) return <Skeleton active />;
  const u = user.data;
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('profile.title')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('profile.details')}>
            <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
              <Descriptions.Item label={t('users.username')}>{u.Username}</Descriptions.Item>
              <Descriptions.Item label={t('users.group')}>{t(`groups.${u.GroupId}`)}</Descriptions.Item>
              <Descriptions.Item label={t('users.added')}>{formatDateTime(u.Added)}</Descriptions.Item>
            </Descriptions>
            <Form<DetailsForm>
              layout="vertical"
              requiredMark={false}
              initialValues={detailsValues(u)}
              onFinish={(values) => void saveDetails(values)}
            >
              <NameFields />
              <ContactFields />
              <Button type="primary" htmlType="submit" loading={update.isPending}>
                {t('common.save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('profile.changePassword')}>
            <Form<PasswordForm>
              form={passwordForm}
              layout="vertical"
              requiredMark={false}
              onFinish={(values) => void savePassword(values)}
            >
              <Form.Item
                label={t('profile.currentPassword')}
                name="currentPassword"
                rules={[{ required: true, message: t('profile.currentPasswordRequired') }]}
              >
                <Input.Password autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} />
              </Form.Item>
              <NewPasswordField name="password" label={t('profile.newPassword')} />
              <Form.Item
                label={t('profile.confirmPassword')}
                name="confirm"
                dependencies={['password']}
                rules={[
                  { required: true, message: t('profile.confirmRequired') },
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      !value || getFieldValue('password') === value
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('profile.passwordsDiffer'))),
                  }),
                ]}
              >
                <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={changingPassword}>
                {t('profile.changePassword')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('users.signOutEverywhere')}>
            <Typography.Paragraph>{t('profile.signOutEverywhereHelp')}</Typography.Paragraph>
            <Button danger loading={signOutEverywhere.isPending} onClick={() => void signOutHere()}>
              {t('users.signOutEverywhere')}
            </Button>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <DigestCard />
        </Col>
        <Col xs={24} lg={12}>
          <StatementMailCard />
        </Col>
      </Row>
    </>
  );
}
