import type { OccupancyStatement, StatementFigure } from '@rodmenys/contract';
import { getOccupancyStatements } from '@rodmenys/contract';
import { Card, Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEndpointQuery } from '../../api/query';
import { LoadError } from '../../components/load-error';
import { useLanguage } from '../../i18n';
import { formatFigure } from './statement-format';

/**
 * The occupants of a flat's month (docs/occupancies.md), under its statement: the one occupant's name
 * and account, or when more than one lived there in the month each occupant's days and figures, and
 * the comparisons only where they are the occupant's own (else why not).
 */
export function OccupantStatements({ flatId, month }: { flatId: number; month: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const data = useEndpointQuery(getOccupancyStatements, { params: { flatId }, query: { month } });
  if (data.error) return <LoadError error={data.error} onRetry={() => void data.refetch()} />;
  const list = data.data?.Occupancies ?? [];
  const only = list.length === 1 ? list[0] : undefined;
  // One occupant all month: who it is; none recorded: nothing.
  if (only)
    return (
      <Typography.Paragraph>
        {t('occupancies.statements.only', { name: only.Name, code: only.ClientCode, days: only.Days })}
      </Typography.Paragraph>
    );
  if (list.length < 2) return null;
  const figure = (f: StatementFigure | null, missing: string | null) =>
    f ? formatFigure(f, language, t) : missing ? t(`occupancies.statements.noComparison.${missing}`) : '';
  return (
    <section aria-label={t('occupancies.statements.title')}>
      <Typography.Title level={3}>{t('occupancies.statements.title')}</Typography.Title>
      <Space direction="vertical" style={{ width: '100%' }}>
        {list.map((o: OccupancyStatement) => (
          <Card
            key={o.OccupancyId}
            size="small"
            title={t('occupancies.statements.occupant', {
              name: o.Name,
              code: o.ClientCode,
              from: o.From,
              till: o.Till,
              days: o.Days,
            })}
          >
            <Descriptions size="small" column={1} bordered>
              {o.Kinds.map((k) => (
                <Descriptions.Item
                  key={k.Kind}
                  label={`${t(`statements.kinds.${k.Kind}`)}, ${t(`statements.units.${k.Unit}`)}`}
                >
                  <Space direction="vertical" size={0}>
                    <span>
                      {t('statements.current')}: {formatFigure(k.Current, language, t)}
                    </span>
                    <span>
                      {t('statements.previous')}: {figure(k.Previous, k.PreviousMissing)}
                    </span>
                    <span>
                      {t('statements.lastYear')}: {figure(k.LastYear, k.LastYearMissing)}
                    </span>
                  </Space>
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Card>
        ))}
      </Space>
    </section>
  );
}
