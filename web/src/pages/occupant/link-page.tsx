import { Alert, Button, Card, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signInOccupant } from '../../api/occupant';
import { useErrorText } from '../../components/load-error';
import { changeLanguage } from '../../i18n';
import { usePageTitle } from './page-title';
import { OCCUPANT_HOME, OCCUPANT_MONTHS } from './paths';
import { signInErrorText } from './sign-in-error';

/** The token of the link: the address's fragment (`#<token>`), which the browser never sends to the server. */
export function tokenOf(hash: string): string {
  const raw = hash.replace(/^#/, '');
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    // A mangled escape (a mail client's rewriting): the server says whether the text as it is opens anything.
    return raw.trim();
  }
}

/**
 * Where an e-mail's link lands (docs/occupant-access.md): reads the token from the fragment,
 * takes it out of the address bar and the history at once (a bookmark or a shared screen keeps
 * nothing), exchanges it for a session in a POST, and opens the months in the occupancy's language.
 */
export default function OccupantLinkPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  usePageTitle(t('occupant.link.title'));

  useEffect(() => {
    // Once per page load, even when React runs effects twice (development): a link opens one session.
    if (started.current) return;
    started.current = true;
    const token = tokenOf(window.location.hash);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!token) {
      setError(t('occupant.link.missing'));
      return;
    }
    signInOccupant({ token })
      .then(async (session) => {
        if (session.Language) await changeLanguage(session.Language);
        navigate(OCCUPANT_MONTHS, { replace: true });
      })
      .catch((failure: unknown) => setError(signInErrorText(failure, 'link', t, errorText(failure))));
  }, [navigate, t, errorText]);

  return (
    <Card>
      <Typography.Title level={1} className="page-title">
        {t('occupant.link.title')}
      </Typography.Title>
      {error ? (
        <>
          <Alert role="alert" type="error" showIcon title={error} style={{ marginBottom: 16 }} />
          <Button type="primary" onClick={() => navigate(OCCUPANT_HOME)}>
            {t('occupant.link.toCode')}
          </Button>
        </>
      ) : (
        <div role="status" className="page-spinner">
          <Spin aria-hidden />
          <Typography.Paragraph style={{ marginTop: 12 }}>{t('occupant.link.opening')}</Typography.Paragraph>
        </div>
      )}
    </Card>
  );
}
