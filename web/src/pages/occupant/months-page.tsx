import { CheckCircleOutlined, RightOutlined } from '@ant-design/icons';
import { Alert, Card, Skeleton, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useOccupantDeclarations,
  useOccupantMonths,
  useOccupantProfile,
  useUpdateOccupantConsent,
} from '../../api/occupant';
import { LoadError, useErrorText } from '../../components/load-error';
import { monthName } from '../../format';
import { useLanguage } from '../../i18n';
import { formatDay, occupantAddress } from './occupant-format';
import { usePageTitle } from './page-title';
import { OCCUPANT_DECLARE, occupantMonthPath } from './paths';

/**
 * The occupant's home (docs/occupant-access.md): who and where, the published months of the
 * occupancy (newest first, each opening its statement) and the switch for electronic delivery.
 */
export default function OccupantMonthsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const profile = useOccupantProfile();
  const months = useOccupantMonths();
  const declarations = useOccupantDeclarations();
  usePageTitle(t('occupant.months.title'));
  const p = profile.data;
  return (
    <>
      <Typography.Title level={1} className="page-title">
        {t('occupant.months.title')}
      </Typography.Title>
      {profile.error && <LoadError error={profile.error} onRetry={() => void profile.refetch()} />}
      {p ? (
        <Typography.Paragraph>
          <Typography.Text strong>{occupantAddress(p, t)}</Typography.Text>
          <br />
          {t('occupant.months.occupant', { name: p.Name, code: p.ClientCode })}
          {p.AccessUntil && (
            <>
              <br />
              <Typography.Text type="secondary">
                {t('occupant.months.accessUntil', { day: formatDay(p.AccessUntil, language) })}
              </Typography.Text>
            </>
          )}
        </Typography.Paragraph>
      ) : (
        !profile.error && <Skeleton active paragraph={{ rows: 1 }} />
      )}
      <Card title={<h2 className="occupant-card-title">{t('occupant.months.list')}</h2>} className="occupant-section">
        {months.error && <LoadError error={months.error} onRetry={() => void months.refetch()} />}
        {months.isPending && <Skeleton active paragraph={{ rows: 3 }} />}
        {months.data && months.data.length === 0 && (
          <Typography.Paragraph style={{ marginBottom: 0 }}>{t('occupant.months.none')}</Typography.Paragraph>
        )}
        {months.data && months.data.length > 0 && (
          <ul className="occupant-months">
            {months.data.map((m) => (
              <li key={m.Month}>
                <Link to={occupantMonthPath(m.Month)}>
                  {monthName(m.Month, language)} <RightOutlined aria-hidden style={{ fontSize: 12 }} />
                </Link>
                <Typography.Text type="secondary">
                  {t('occupant.months.published', { day: formatDay(m.PublishedAt.slice(0, 10), language) })}
                </Typography.Text>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {declarations.data && declarations.data.Devices.length > 0 && (
        <Card
          title={<h2 className="occupant-card-title">{t('occupant.declare.cardTitle')}</h2>}
          className="occupant-section"
        >
          <Typography.Paragraph>{t('occupant.declare.cardIntro')}</Typography.Paragraph>
          <Link to={OCCUPANT_DECLARE}>
            {t('occupant.declare.link')} <RightOutlined aria-hidden style={{ fontSize: 12 }} />
          </Link>
        </Card>
      )}
      {p && <ConsentCard electronic={p.Electronic} email={p.Email} consentAt={p.ConsentAt} />}
    </>
  );
}

/** Electronic delivery on or off: the server's answer is what the switch then shows. */
function ConsentCard({
  electronic,
  email,
  consentAt,
}: {
  electronic: boolean;
  email: string | null;
  consentAt: string | null;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useErrorText();
  const update = useUpdateOccupantConsent();
  // Said in the card, not in a toast: on a phone a toast covers the header's buttons.
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const change = (on: boolean) => {
    setOutcome(null);
    update.mutate(on, {
      onSuccess: (profile) =>
        setOutcome({
          ok: true,
          text: t(profile.Electronic ? 'occupant.consent.savedOn' : 'occupant.consent.savedOff'),
        }),
      onError: (error) => setOutcome({ ok: false, text: errorText(error) }),
    });
  };
  const state = electronic
    ? email
      ? t('occupant.consent.on', { email })
      : t('occupant.consent.onNoEmail')
    : t('occupant.consent.off');
  return (
    <Card title={<h2 className="occupant-card-title">{t('occupant.consent.title')}</h2>} className="occupant-section">
      <div className="occupant-switch">
        <Switch
          id="occupant-consent"
          checked={electronic}
          loading={update.isPending}
          onChange={change}
          aria-describedby="occupant-consent-state"
        />
        <label htmlFor="occupant-consent">{t('occupant.consent.label')}</label>
      </div>
      <Typography.Paragraph id="occupant-consent-state" style={{ marginTop: 12, marginBottom: 0 }}>
        {state}
        {electronic && consentAt && ` ${t('occupant.consent.since', { day: formatDay(consentAt, language) })}`}
      </Typography.Paragraph>
      <div role="status" className="occupant-consent-outcome">
        {outcome &&
          (outcome.ok ? (
            <Typography.Text type="success">
              <CheckCircleOutlined aria-hidden /> {outcome.text}
            </Typography.Text>
          ) : (
            <Alert type="error" showIcon title={outcome.text} />
          ))}
      </div>
    </Card>
  );
}
