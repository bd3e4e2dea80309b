import type { Anomaly } from '@rodmenys/contract';
import { App, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAcknowledgeAnomaly, useResolveAnomaly } from '../../api/data-quality';
import { FormDialog } from '../../components/form-dialog';
import { RequiredTextArea } from '../../components/form-fields';

/** Acknowledge or resolve, with the comment both require; a refusal is said in the dialog, which stays open. */
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
  const [form] = Form.useForm<{ comment: string }>();
  const acknowledge = useAcknowledgeAnomaly();
  const resolve = useResolveAnomaly();
  const save = async ({ comment }: { comment: string }) => {
    await (action === 'acknowledge' ? acknowledge : resolve).mutateAsync({
      params: { id: anomaly.Id },
      body: { comment: comment.trim() },
    });
    message.success(t(action === 'acknowledge' ? 'anomalies.acknowledgedDone' : 'anomalies.resolvedDone'));
  };
  return (
    <FormDialog
      title={t(`anomalies.${action}Title`, { id: anomaly.Id })}
      okText={t(`anomalies.${action}`)}
      form={form}
      onSave={save}
      onClose={onClose}
      pending={acknowledge.isPending || resolve.isPending}
    >
      <RequiredTextArea
        name="comment"
        label={t('anomalies.comment')}
        requiredMessage={t('anomalies.commentRequired')}
        rows={3}
        maxLength={1000}
      />
    </FormDialog>
  );
}
