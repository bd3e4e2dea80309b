import type { Job } from '@rodmenys/contract';
import { App, Button, Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useJobs, useRunJob } from '../../api/data-quality';
import { useErrorText } from '../../components/load-error';
import { formatDateTime } from '../../format';
import { QueryTableCard } from './query-table-card';

/** What a run did, each count by its name; "no mail server" for a digest that could not be sent. */
function resultText(result: Job['LastResult'], t: TFunction): string {
  if (!result) return '';
  return Object.entries(result)
    .map(([key, n]) =>
      key === 'mailNotConfigured'
        ? t('anomalies.jobs.results.mailNotConfigured')
        : `${t(`anomalies.jobs.results.${key}`, { defaultValue: key })}: ${n}`,
    )
    .join(', ');
}

/** Due now and not running: the scheduler starts it within seconds (a run asked for on demand). */
const isDue = (job: Job) => !job.Running && new Date(job.NextRunAt).getTime() <= Date.now();

/**
 * The scheduled work (docs/data-quality.md, "Scheduled work"): when each job runs next, its last
 * run, how long it took, what it did or the error, and "Run now" (audited). While a job waits or
 * runs, the list is read again every few seconds so the run's outcome appears.
 */
export function JobsCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const jobs = useJobs(true, (rows) => rows?.some((j) => j.Running || isDue(j)) ?? false);
  const run = useRunJob();
  const runNow = async (job: Job) => {
    const name = t(`anomalies.jobs.names.${job.Name}`, { defaultValue: job.Name });
    try {
      await run.mutateAsync({ params: { name: job.Name } });
      message.success(t('anomalies.jobs.requested', { name }));
    } catch (err) {
      message.error(errorText(err));
    }
  };
  return (
    <QueryTableCard<Job>
      title={t('anomalies.jobs.title')}
      query={jobs}
      rowKey="Name"
      columns={[
        {
          title: t('anomalies.jobs.name'),
          dataIndex: 'Name',
          render: (name: string, job) => (
            <Space size={4} wrap>
              {t(`anomalies.jobs.names.${name}`, { defaultValue: name })}
              {job.Running && <Tag color="processing">{t('anomalies.jobs.running')}</Tag>}
              {isDue(job) && <Tag>{t('anomalies.jobs.due')}</Tag>}
            </Space>
          ),
        },
        { title: t('anomalies.jobs.lastStarted'), dataIndex: 'LastStartedAt', render: formatDateTime },
        {
          title: t('anomalies.jobs.duration'),
          dataIndex: 'LastDurationMs',
          align: 'right',
          render: (ms: number | null) => (ms === null ? '' : t('anomalies.jobs.ms', { ms })),
        },
        {
          title: t('anomalies.jobs.lastResult'),
          render: (_, job) =>
            job.LastError ? (
              <Typography.Text type="danger">
                {t('anomalies.jobs.failed')}: <code>{job.LastError}</code>
              </Typography.Text>
            ) : (
              resultText(job.LastResult, t)
            ),
        },
        { title: t('anomalies.jobs.nextRun'), dataIndex: 'NextRunAt', render: formatDateTime },
        {
          title: t('anomalies.jobs.runs'),
          align: 'right',
          render: (_, job) => t('anomalies.jobs.runsFailures', { runs: job.Runs, failures: job.Failures }),
        },
        {
          title: t('anomalies.jobs.actions'),
          render: (_, job) => (
            <Button
              size="small"
              onClick={() => void runNow(job)}
              loading={run.isPending && run.variables?.params.name === job.Name}
              aria-label={t('anomalies.jobs.runNowOf', {
                name: t(`anomalies.jobs.names.${job.Name}`, { defaultValue: job.Name }),
              })}
            >
              {t('anomalies.jobs.runNow')}
            </Button>
          ),
        },
      ]}
    />
  );
}
