import type { Anomaly } from '@rodmenys/contract';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAcknowledgeAnomaly, useResolveAnomaly } from '../../api/data-quality';
import { useErrorText } from '../../components/load-error';
import { STATIC_MODAL } from '../../components/modal-host';

/** Acknowledge or resolve, with the comment both require. */
export function CommentDialog({
  action,
  anomaly,
  onClose,
}: {
  action: 'acknowledge' | 'resolve';
  anomaly: Anomaly;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<{ comment: string }>();
  const acknowledge = useAcknowledgeAnomaly();
  const resolve = useResolveAnomaly();
  const submit = async ({ comment }: { comment: string }) => {
    try {
      await (action === 'acknowledge' ? acknowledge : resolve).mutateAsync({
        params: { id: anomaly.Id },
        body: { comment: comment.trim() },
      });
      message.success(t('anomalies.done'));
      onClose();
    } catch (error) {
      message.error(errorText(error));
    }
  };
  return (
    <Modal
      open
      {...STATIC_MODAL}
      title={t(`anomalies.${action}Title`, { id: anomaly.Id })}
      okText={t(`anomalies.${action}`)}
      cancelText={t('common.cancel')}
      confirmLoading={acknowledge.isPending || resolve.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="comment"
          label={t('anomalies.comment')}
          rules={[{ required: true, whitespace: true, message: t('anomalies.commentRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
