import type { Anomaly } from '@rodmenys/contract';
import { App, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAcknowledgeAnomaly, useResolveAnomaly } from '../../api/data-quality';
import { RequiredTextArea } from '../../components/form-fields';
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
  /** `done`: the anomaly was acknowledged or resolved (the page then moves the focus to what follows). */
  onClose: (done: boolean) => void;
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
      message.success(t(action === 'acknowledge' ? 'anomalies.acknowledgedDone' : 'anomalies.resolvedDone'));
      onClose(true);
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
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <RequiredTextArea
          name="comment"
          label={t('anomalies.comment')}
          requiredMessage={t('anomalies.commentRequired')}
          rows={3}
          maxLength={1000}
        />
      </Form>
    </Modal>
  );
}
