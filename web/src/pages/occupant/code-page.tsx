import { LETTER_CODE_LENGTH } from '@rodmenys/contract';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { signInOccupant } from '../../api/occupant';
import { useAlert } from '../../components/alert';
import { useErrorText } from '../../components/load-error';
import { changeLanguage } from '../../i18n';
import { useOccupantSession } from './occupant-session';
import { usePageTitle } from './page-title';
import { OCCUPANT_MONTHS } from './paths';
import { signInErrorText } from './sign-in-error';

interface CodeForm {
  flat: string;
  code: string;
}

/** Flat numbers are the flats' ids (positive 32-bit integers), as printed on the letter. */
const FLAT_NUMBER = /^\d{1,10}$/;
const MAX_FLAT = 2 ** 31 - 1;

/**
 * The public code page (docs/occupant-access.md): the flat's number and the letter code from the
 * letter open the occupant's statements. A refusal is said in plain words: a wrong or old code,
 * or too many attempts and how long to wait.
 */
export default function OccupantCodePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useOccupantSession();
  const errorText = useErrorText();
  const { setAlert } = useAlert();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  usePageTitle(t('occupant.code.title'));
  if (session) return <Navigate to={OCCUPANT_MONTHS} replace />;

  const onFinish = async (values: CodeForm) => {
    setError(null);
    setAlert(null);
    setBusy(true);
    try {
      const opened = await signInOccupant({ flat: Number(values.flat), code: values.code.trim() });
      if (opened.Language) await changeLanguage(opened.Language);
      navigate(OCCUPANT_MONTHS, { replace: true });
    } catch (failure) {
      setError(signInErrorText(failure, 'code', t, errorText(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <Typography.Title level={1} className="page-title">
        {t('occupant.code.title')}
      </Typography.Title>
      <Typography.Paragraph>{t('occupant.code.intro')}</Typography.Paragraph>
      {error && <Alert role="alert" type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form<CodeForm>
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void onFinish(values)}
        validateTrigger="onSubmit"
      >
        <Form.Item
          label={t('occupant.code.flat')}
          name="flat"
          extra={t('occupant.code.flatHelp')}
          rules={[
            { required: true, whitespace: true, message: t('occupant.code.flatRequired') },
            {
              validator: (_, value: string | undefined) =>
                !value?.trim() || (FLAT_NUMBER.test(value.trim()) && Number(value) >= 1 && Number(value) <= MAX_FLAT)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('occupant.code.flatInvalid'))),
            },
          ]}
        >
          <Input inputMode="numeric" autoComplete="off" maxLength={10} />
        </Form.Item>
        <Form.Item
          label={t('occupant.code.code')}
          name="code"
          extra={t('occupant.code.codeHelp', { length: LETTER_CODE_LENGTH })}
          rules={[{ required: true, whitespace: true, message: t('occupant.code.codeRequired') }]}
        >
          <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={40} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} disabled={busy}>
          {t('occupant.code.submit')}
        </Button>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t('occupant.code.byEmail')}
      </Typography.Paragraph>
    </Card>
  );
}
