import {
  CAMPAIGN_NAME_MAX_LENGTH,
  type CampaignBuilding,
  type CampaignDevice,
  NO_ACCESS_REASON_MAX_LENGTH,
} from '@rodmenys/contract';
import { Form, Input, Space } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateCampaign, usePlanVisit, useRecordNoAccess, useUpdateCampaign } from '../../api/campaigns';
import { FormDialog } from '../../components/form-dialog';

/*
 * The dialogs of exchange campaigns (docs/device-lifetime.md, "Exchange campaigns"): start one from
 * the devices selected on the due list, rename it, plan a building's visit day, record a visit
 * without access.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A new campaign over the selected devices; `onClose` gets the new campaign's id, or null on Cancel. */
export function CreateCampaignDialog({
  deviceIds,
  onClose,
}: {
  deviceIds: number[];
  onClose: (campaignId: number | null) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const create = useCreateCampaign();
  const created = useRef<number | null>(null);
  return (
    <FormDialog<{ name: string }>
      title={t('campaigns.createTitle')}
      intro={<p>{t('campaigns.createIntro', { count: deviceIds.length })}</p>}
      form={form}
      pending={create.isPending}
      onSave={async ({ name }) => {
        created.current = (await create.mutateAsync({ body: { name: name.trim(), deviceIds } })).Id;
      }}
      onClose={() => onClose(created.current)}
    >
      <Form.Item
        name="name"
        label={t('campaigns.name')}
        rules={[{ required: true, whitespace: true, message: t('campaigns.nameRequired') }]}
      >
        <Input autoFocus maxLength={CAMPAIGN_NAME_MAX_LENGTH} />
      </Form.Item>
    </FormDialog>
  );
}

/** Renames a campaign. */
export function RenameCampaignDialog({ id, name, onClose }: { id: number; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const update = useUpdateCampaign();
  return (
    <FormDialog<{ name: string }>
      title={t('campaigns.renameTitle')}
      form={form}
      pending={update.isPending}
      onSave={({ name: next }) => update.mutateAsync({ params: { id }, body: { name: next.trim() } })}
      onClose={onClose}
      formProps={{ initialValues: { name } }}
    >
      <Form.Item
        name="name"
        label={t('campaigns.name')}
        rules={[{ required: true, whitespace: true, message: t('campaigns.nameRequired') }]}
      >
        <Input autoFocus maxLength={CAMPAIGN_NAME_MAX_LENGTH} />
      </Form.Item>
    </FormDialog>
  );
}

interface VisitValues {
  day: string;
  from: string;
  to: string;
}

/** Plans a building's visit day with an optional time window; an empty day removes it. */
export function PlanVisitDialog({
  id,
  building,
  onClose,
}: {
  id: number;
  building: CampaignBuilding;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<VisitValues>();
  const plan = usePlanVisit();
  const timeRule = { pattern: TIME, message: t('campaigns.timeInvalid') };
  return (
    <FormDialog<VisitValues>
      title={t('campaigns.planTitle', { address: building.Address })}
      form={form}
      pending={plan.isPending}
      fields={{ visit: 'day' }}
      onSave={({ day, from, to }) =>
        plan.mutateAsync({
          params: { id, buildingId: building.BuildingId },
          body: { visit: day?.trim() ? { Day: day.trim(), From: from?.trim() || null, To: to?.trim() || null } : null },
        })
      }
      onClose={onClose}
      formProps={{
        initialValues: {
          day: building.Visit?.Day ?? '',
          from: building.Visit?.From ?? '',
          to: building.Visit?.To ?? '',
        },
      }}
    >
      <Form.Item
        name="day"
        label={t('campaigns.day')}
        extra={t('campaigns.clearVisit')}
        rules={[{ pattern: DAY, message: t('campaigns.dayRequired') }]}
      >
        <Input autoFocus placeholder="2030-03-05" maxLength={10} />
      </Form.Item>
      <Space wrap>
        <Form.Item name="from" label={t('campaigns.from')} rules={[timeRule]}>
          <Input placeholder="08:00" maxLength={5} />
        </Form.Item>
        <Form.Item name="to" label={t('campaigns.to')} rules={[timeRule]}>
          <Input placeholder="12:00" maxLength={5} />
        </Form.Item>
      </Space>
    </FormDialog>
  );
}

/** Records a visit without access to one device: the day and why. */
export function NoAccessDialog({
  id,
  device,
  defaultDay,
  onClose,
}: {
  id: number;
  device: CampaignDevice;
  defaultDay: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ day: string; reason: string }>();
  const record = useRecordNoAccess();
  return (
    <FormDialog<{ day: string; reason: string }>
      title={t('campaigns.noAccessTitle', { serial: device.DeviceCode })}
      form={form}
      pending={record.isPending}
      onSave={({ day, reason }) =>
        record.mutateAsync({
          params: { id, deviceId: device.DeviceId },
          body: { day: day.trim(), reason: reason.trim() },
        })
      }
      onClose={onClose}
      formProps={{ initialValues: { day: defaultDay, reason: '' } }}
    >
      <Form.Item
        name="day"
        label={t('campaigns.noAccessDay')}
        rules={[{ required: true, pattern: DAY, message: t('campaigns.dayRequired') }]}
      >
        <Input maxLength={10} />
      </Form.Item>
      <Form.Item
        name="reason"
        label={t('campaigns.noAccessReason')}
        rules={[{ required: true, whitespace: true, message: t('campaigns.reasonRequired') }]}
      >
        <Input.TextArea autoFocus rows={3} maxLength={NO_ACCESS_REASON_MAX_LENGTH} />
      </Form.Item>
    </FormDialog>
  );
}
