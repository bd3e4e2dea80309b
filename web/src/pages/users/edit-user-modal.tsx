import { assignableGroups, type GroupId, type User } from '@rodmenys/contract';
import { Alert, App, Form, Modal, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateUser } from '../../api/users';
import {
  ContactFields,
  type DetailsForm,
  detailsBody,
  detailsValues,
  NameFields,
} from '../../components/account-fields';
import { placeRefusal } from '../../components/form-dialog';
import { useErrorText } from '../../components/load-error';
import { STATIC_MODAL, useDialogClose } from '../../components/modal-host';
import { useSession } from '../../session';

interface EditForm extends DetailsForm {
  groupId: GroupId;
  active: boolean;
}

/** A manager edits an account: names, contacts, group (groups 1 and 2 only by group 1) and the active flag. */
export function EditUserModal({ user, onClose }: { user: User; onClose: () => void }) {
  const { close, modalProps } = useDialogClose(onClose);
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useSession()!;
  const errorText = useErrorText();
  const update = useUpdateUser();
  const [form] = Form.useForm<EditForm>();
  const [refusal, setRefusal] = useState<string | null>(null);
  // Only group 1 makes anyone group 1 or 2 (docs/security.md); group 2 manages group 3 accounts.
  const groups = assignableGroups(me.GroupId);

  const save = async (values: EditForm) => {
    setRefusal(null);
    try {
      await update.mutateAsync({
        params: { id: user.Id },
        body: {
          ...detailsBody(values),
          groupId: values.groupId,
          active: values.active,
        },
      });
      message.success(t('users.saved'));
      close();
    } catch (error) {
      setRefusal(placeRefusal(form, error, errorText(error)));
    }
  };

  return (
    <Modal
      {...modalProps}
      {...STATIC_MODAL}
      title={t('users.editTitle', { username: user.Username })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={update.isPending}
      onOk={() => form.submit()}
      onCancel={() => close()}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon role="alert" title={refusal} style={{ marginBottom: 12 }} />}
      <Form<EditForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          ...detailsValues(user),
          groupId: user.GroupId,
          active: user.Active,
        }}
        onFinish={(values) => void save(values)}
      >
        <NameFields />
        <ContactFields />
        <Form.Item label={t('users.group')} name="groupId">
          <Select options={groups.map((g) => ({ value: g, label: t(`groups.${g}`) }))} />
        </Form.Item>
        <Form.Item label={t('users.active')} name="active" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
